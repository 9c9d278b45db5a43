package workspace

import "bytes"

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
// optional UTF-8 BOM) whose top level, as YAML reads it, has the key type
// with the value knowledge-artifact (what awp writes and reads), or the
// key smp with any value but false or null (`smp: false` says the file is
// not one). It decides in up to three steps, cheapest first:
//
//   - the scan: the frontmatter's lines up to its closing --- (or the end
//     of the file, for one never closed), without decoding them; a top-level
//     line "smp: <value>" or "type: knowledge-artifact" declares (what awp
//     writes: the common case);
//   - otherwise the decoded frontmatter (see decodedDeclaration), which
//     sees every other way YAML spells the same mapping: a flow mapping,
//     explicit keys, tags, escapes, comments after a tab, merge keys;
//   - a frontmatter too broken to decode declares when the scan found the
//     key smp with a value it could not judge (one on the lines below), so
//     that a broken frontmatter that says so is judged (and reported by
//     smp/parse) rather than skipped.
func DeclaresArtifact(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	s := scanFrontmatter(data)
	switch s {
	case scanDeclares:
		return true
	case scanNoFrontmatter:
		return false
	}
	if declares, decoded := decodedDeclaration(data); decoded {
		return declares
	}
	return s == scanUnsure
}

// scanVerdict is what the line scan of a frontmatter found.
type scanVerdict int

const (
	// scanNoFrontmatter: the file does not open with a frontmatter.
	scanNoFrontmatter scanVerdict = iota
	// scanSilent: no line declares, as far as the scan can tell.
	scanSilent
	// scanUnsure: a line "smp:" whose value the scan cannot judge.
	scanUnsure
	// scanDeclares: a line declares.
	scanDeclares
)

// scanFrontmatter scans the frontmatter of data (a BOM removed) line by
// line.
func scanFrontmatter(data []byte) scanVerdict {
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if !isFence(first) {
		return scanNoFrontmatter
	}
	found := scanSilent
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if isFence(line) {
			break
		}
		found = max(found, declaringLine(bytes.TrimSuffix(line, []byte("\r"))))
		if found == scanDeclares {
			break
		}
	}
	return found
}

// isFence reports a frontmatter delimiter line, "---" with trailing
// blanks or a carriage return.
func isFence(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

// declaringLine judges a top-level frontmatter line "smp: …" or "type:
// knowledge-artifact" (keys and values plain or quoted, a trailing comment
// allowed).
func declaringLine(line []byte) scanVerdict {
	if len(line) == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#' {
		return scanSilent
	}
	key, value, found := bytes.Cut(line, []byte(":"))
	if !found {
		return scanSilent
	}
	value = withoutComment(value)
	switch unquote(string(bytes.TrimSpace(key))) {
	case "smp":
		switch string(value) {
		case "":
			return scanUnsure
		case "false", "False", "FALSE", "null", "Null", "NULL", "~":
			return scanSilent
		}
		return scanDeclares
	case "type":
		if unquote(string(value)) == "knowledge-artifact" {
			return scanDeclares
		}
	}
	return scanSilent
}

// withoutComment returns a one-line value without its comment (a # after a
// blank) and the blanks around it.
func withoutComment(value []byte) []byte {
	for i := 1; i < len(value); i++ {
		if value[i] == '#' && (value[i-1] == ' ' || value[i-1] == '\t') {
			value = value[:i]
			break
		}
	}
	return bytes.Trim(value, " \t")
}

// unquote strips one pair of matching YAML quotes.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
