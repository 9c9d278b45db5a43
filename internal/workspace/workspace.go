// Package workspace decides which repository paths are protocol state.
// Only what declares itself is governed: a SMALL workspace is a directory
// .small (at any depth) that holds one of the canonical .small.yml files,
// and its root is the directory that holds it; an AWP workspace is a
// directory that holds .awp/workspace.json, and its knowledge artifacts
// live in artifacts/ beside .awp/; a Markdown file directly in an
// artifacts directory whose frontmatter declares it a knowledge artifact
// is governed on its own, in any directory. Whether something is declared
// comes from the caller as plain data (Declarations): the package only
// looks at paths and, for artifacts, at a file's frontmatter.
package workspace

import (
	"slices"
	"strings"
)

// Kind is the protocol a workspace follows.
type Kind string

// The two kinds of workspace.
const (
	// SMALL is a SMALL protocol workspace: the .small/ directory.
	SMALL Kind = "small"
	// AWP is an agent workspace holding SMP knowledge artifacts.
	AWP Kind = "awp"
)

// The names of the directories that make a path governed (see Dirs).
const (
	smallDir     = ".small"
	awpDir       = ".awp"
	artifactsDir = "artifacts"
)

// markerName is the marker's name in an AWP workspace's .awp directory.
const markerName = "workspace.json"

// Marker is the file, relative to a workspace root, that makes a directory
// an AWP workspace.
const Marker = awpDir + "/" + markerName

// Workspace is one workspace of the repository.
type Workspace struct {
	Kind Kind
	// Root is the directory that holds the workspace, relative to the
	// repository root and ending in "/"; "" for the repository root.
	Root string
}

// Dir is the directory that holds the workspace's governed files:
// Root + ".small/" for SMALL, Root + "artifacts/" for AWP (the directory
// of its kind that Dirs does not declare private).
func (w Workspace) Dir() string {
	for _, d := range &dirs {
		if d.Kind == w.Kind && d.Area != Private {
			return w.Root + d.Name + "/"
		}
	}
	return w.Root
}

// Path returns the path of a file of the workspace, given its name
// relative to Dir: Path("progress.small.yml").
func (w Workspace) Path(name string) string { return w.Dir() + name }

// String names the workspace for messages: ".small/" or
// "examples/demo/.small/".
func (w Workspace) String() string { return w.Dir() }

// Area is the part of a workspace a path lies in.
type Area string

// The governed areas.
const (
	// Files is the SMALL workspace directory (.small/).
	Files Area = "small"
	// Artifacts is an AWP workspace's artifacts/ directory, or the
	// directory of a knowledge artifact that declares itself.
	Artifacts Area = "artifacts"
	// Private is an AWP workspace's .awp/ directory: scanned for secrets
	// only (awp writes its private key there).
	Private Area = "awp"
)

// Place is where a governed path lies.
type Place struct {
	Workspace Workspace
	Area      Area
	// Rel is the path relative to the area's directory
	// ("progress.small.yml", "notes.md", "private-key.pem").
	Rel string
	// Folded is set when the path is not spelled as the governed path it
	// stands for, but a case-insensitive or normalising file system
	// (macOS, Windows) would take it for that path: ".SMALL/intent.small.yml",
	// "Artifacts/x.md". Such a path must be refused, never ignored.
	Folded bool
	// Canonical is the governed path a folded path stands for (the path
	// itself when not folded).
	Canonical string
	// Standalone is set for a knowledge artifact governed by its own
	// declaration (its frontmatter), in a directory that is no AWP
	// workspace.
	Standalone bool
	// Undeclared is set by the caller that sees the change (see
	// changes.Locate) when a standalone artifact's new version no longer
	// declares itself while its previous version did: the change removes
	// the declaration, which is judged as such rather than as the content
	// of an artifact.
	Undeclared bool
}

// Governed reports whether the place belongs to a workspace.
func (p Place) Governed() bool { return p.Area != "" }

// Locate finds where a path lies, given what is declared: the innermost
// governing directory whose workspace (or, for a Markdown file directly in
// an artifacts directory, whose file) is declared wins. A path that no
// declaration governs has the zero Place (but its Canonical spelling):
// such a path is not protocol state, and a folded spelling of it is not
// refused either.
func Locate(path string, d Declarations) Place {
	declared := d.roots.along(path)
	p := Place{Canonical: path}
	eachGoverningDir(path, func(g governingDir) bool {
		inWorkspace := g.depth < len(declared) && slices.Contains(declared[g.depth], g.dir.Kind)
		if inWorkspace || g.markdown && d.Has(Declaration{Artifact: g.canonical}) {
			p = placeIn(path, g)
			p.Standalone = !inWorkspace
			return false
		}
		return true
	})
	return p
}

// governingDir is a directory of a path that can govern it. Its strings
// are pieces of the path: finding every governing directory of a path
// costs one reading of it, however deep it is.
type governingDir struct {
	// dir is the governing directory it stands for, and exact tells
	// whether it is spelled so.
	dir   Dir
	exact bool
	// root is the directory that holds it, and depth how many of the
	// path's directories that is; rel is the path below it.
	root, rel string
	depth     int
	// markdown is set for an artifacts directory (the area of
	// artifacts) when the path is a Markdown file directly in it: a
	// knowledge artifact may declare itself. canonical is then the path
	// with this directory spelled as its name.
	markdown  bool
	canonical string
}

// governingDirs lists the directories of path that can govern it,
// innermost first.
func governingDirs(path string) []governingDir {
	var out []governingDir
	eachGoverningDir(path, func(g governingDir) bool {
		out = append(out, g)
		return true
	})
	return out
}

// innermostDir is the first of governingDirs, found without the others.
func innermostDir(path string) (first governingDir, ok bool) {
	eachGoverningDir(path, func(g governingDir) bool {
		first, ok = g, true
		return false
	})
	return first, ok
}

// eachGoverningDir calls yield with each directory of path that can
// govern it, innermost first, until yield returns false, reading the path
// once from its end.
func eachGoverningDir(path string, yield func(governingDir) bool) {
	if !Candidate(path) {
		return
	}
	last := strings.LastIndexByte(path, '/')
	depth := strings.Count(path, "/") - 1
	for end := last; end >= 0; depth-- {
		start := strings.LastIndexByte(path[:end], '/') + 1
		if dir, exact, ok := fold(path[start:end]); ok {
			g := governingDir{dir: dir, exact: exact, root: path[:start], rel: path[end+1:], depth: depth}
			if dir.Area == Artifacts && end == last && isMarkdownName(g.rel) {
				g.markdown = true
				g.canonical = respelled(path, g)
			}
			if !yield(g) {
				return
			}
		}
		end = start - 1
	}
}

// Innermost is where path would lie if everything that could govern it
// were declared: in the workspace of its innermost governing directory.
// A path that is no Candidate has the zero Place (but its Canonical
// spelling).
func Innermost(path string) Place {
	g, ok := innermostDir(path)
	if !ok {
		return Place{Canonical: path}
	}
	return placeIn(path, g)
}

// placeIn is where path lies when g, one of its governing directories,
// governs it.
func placeIn(path string, g governingDir) Place {
	return Place{Workspace: Workspace{Kind: g.dir.Kind, Root: g.root}, Area: g.dir.Area, Rel: g.rel, Folded: !g.exact, Canonical: respelled(path, g)}
}

// isMarkdownName reports a file name (no directory) that ends in .md and
// has a name before it.
func isMarkdownName(rel string) bool {
	return !strings.Contains(rel, "/") && strings.HasSuffix(rel, ".md") && len(rel) > len(".md")
}

// respelled is path with g, one of its governing directories, spelled as
// the directory it stands for.
func respelled(path string, g governingDir) string {
	if g.exact {
		return path
	}
	return g.root + g.dir.Name + "/" + g.rel
}

// Candidate reports whether a path may be governed: one of its directories
// is, or folds to, .small, .awp or artifacts. It is the cheap filter that
// readers apply to every path of an index or tree before the declarations
// decide; it does not allocate.
func Candidate[T string | []byte](path T) bool {
	start := 0
	for i := 0; i < len(path); i++ {
		if path[i] != '/' {
			continue
		}
		if mayFold(path[start:i]) {
			return true
		}
		start = i + 1
	}
	return false
}
