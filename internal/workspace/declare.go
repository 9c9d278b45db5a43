package workspace

import (
	"bytes"
	"strings"
)

// Declaration names one thing that declares itself protocol state: a
// workspace, or a knowledge artifact outside any AWP workspace.
type Declaration struct {
	// Workspace is the workspace that is declared: a SMALL workspace by a
	// canonical file in its .small/, an AWP workspace by its marker. Zero
	// for an artifact.
	Workspace Workspace
	// Artifact is the path (its canonical spelling) of a Markdown file in
	// an artifacts directory whose frontmatter declares it a knowledge
	// artifact; "" for a workspace.
	Artifact string
}

// Declarations is a set of declarations: what is governed. The zero value
// is the empty set.
type Declarations struct {
	set   map[Declaration]bool
	roots *rootIndex
}

// Add puts x in the set.
func (d *Declarations) Add(x Declaration) {
	if d.set == nil {
		d.set, d.roots = map[Declaration]bool{}, &rootIndex{}
	}
	d.set[x] = true
	if x.Artifact == "" {
		d.roots.add(x.Workspace)
	}
}

// AddAll puts every declaration of o in the set.
func (d *Declarations) AddAll(o Declarations) {
	for x := range o.set {
		d.Add(x)
	}
}

// Has reports whether x is in the set.
func (d Declarations) Has(x Declaration) bool { return d.set[x] }

// Needs lists the declarations that could govern path, innermost first:
// Locate governs the path by the first of them that is declared. It is
// empty for a path that is not a Candidate.
func Needs(path string) []Declaration {
	var out []Declaration
	for _, g := range governingDirs(path) {
		out = append(out, Declaration{Workspace: Workspace{Kind: g.dir.Kind, Root: g.root}})
		if g.markdown {
			out = append(out, Declaration{Artifact: g.canonical})
		}
	}
	return out
}

// DeclaredBy returns the workspace that a file at path declares by
// existing: a canonical SMALL file directly in a .small directory declares
// that SMALL workspace, and .awp/workspace.json declares its AWP
// workspace. A folded spelling of the directory declares too (the file
// systems that fold it see the workspace). false for any other path; an
// artifact's declaration depends on its content (see ArtifactAt).
func DeclaredBy(path string) (Declaration, bool) {
	g, ok := innermostDir(path)
	if !ok {
		return Declaration{}, false
	}
	switch {
	case g.dir.Kind == SMALL && isSMALLFile(g.rel):
		return Declaration{Workspace: Workspace{Kind: SMALL, Root: g.root}}, true
	case g.dir.Area == Private && g.rel == markerName:
		return Declaration{Workspace: Workspace{Kind: AWP, Root: g.root}}, true
	}
	return Declaration{}, false
}

// ArtifactAt returns the declaration a file at path makes when its content
// declares a knowledge artifact (see DeclaresArtifact): path must be a
// Markdown file directly in an artifacts directory (or a folded spelling
// of one).
func ArtifactAt(path string) (Declaration, bool) {
	g, ok := innermostDir(path)
	if !ok || !g.markdown {
		return Declaration{}, false
	}
	return Declaration{Artifact: g.canonical}, true
}

// isSMALLFile reports the names of the six files the SMALL CLI writes in
// .small/ (small/layout allows exactly these, plus ext/).
func isSMALLFile(name string) bool {
	switch name {
	case "intent.small.yml", "constraints.small.yml", "plan.small.yml", "progress.small.yml", "handoff.small.yml", "workspace.small.yml":
		return true
	}
	return false
}

// DeclaresArtifact reports whether a file's content declares it an SMP
// knowledge artifact: it opens with a frontmatter (a line ---, after an
// optional UTF-8 BOM) whose top level has the key smp, or type with the
// value knowledge-artifact (what awp writes and reads). The frontmatter is
// scanned line by line up to its closing --- (or the end of the file, for
// one that is never closed), without decoding it, so that a broken
// frontmatter that says so still declares its file, to be judged (and
// reported) as an artifact.
func DeclaresArtifact(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if !isFence(first) {
		return false
	}
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if isFence(line) {
			return false
		}
		if declaringLine(string(bytes.TrimSuffix(line, []byte("\r")))) {
			return true
		}
	}
	return false
}

// isFence reports a frontmatter delimiter line, "---" with trailing
// blanks or a carriage return.
func isFence(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

// declaringLine reports a top-level frontmatter line "smp: …" or
// "type: knowledge-artifact" (keys and value plain or quoted, a trailing
// comment allowed).
func declaringLine(line string) bool {
	if line == "" || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
		return false
	}
	key, value, found := strings.Cut(line, ":")
	if !found {
		return false
	}
	switch unquote(strings.TrimSpace(key)) {
	case "smp":
		return true
	case "type":
		value, _, _ = strings.Cut(value, " #")
		return unquote(strings.TrimSpace(value)) == "knowledge-artifact"
	}
	return false
}

// unquote strips one pair of matching YAML quotes.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
