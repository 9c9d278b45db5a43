// Package workspace maps repository paths to the workspaces that govern
// them. A SMALL workspace is any directory named .small, at any depth; its
// root is the directory that holds it. An AWP workspace is the repository
// root or any directory that holds .awp/workspace.json; its knowledge
// artifacts live in artifacts/ beside .awp/. The package is pure: it
// looks only at paths (and, for AWP roots, asks its caller whether a
// marker file exists).
package workspace

import "strings"

// Kind is the protocol a workspace follows.
type Kind string

// The two kinds of workspace.
const (
	// SMALL is a SMALL protocol workspace: the .small/ directory.
	SMALL Kind = "small"
	// AWP is an agent workspace holding SMP knowledge artifacts.
	AWP Kind = "awp"
)

// The directory names that make a path governed.
const (
	smallDir     = ".small"
	awpDir       = ".awp"
	artifactsDir = "artifacts"
)

// Marker is the file, relative to a workspace root, that makes a directory
// an AWP workspace.
const Marker = awpDir + "/workspace.json"

// Workspace is one workspace of the repository.
type Workspace struct {
	Kind Kind
	// Root is the directory that holds the workspace, relative to the
	// repository root and ending in "/"; "" for the repository root.
	Root string
}

// Dir is the directory that holds the workspace's governed files:
// Root + ".small/" for SMALL, Root + "artifacts/" for AWP.
func (w Workspace) Dir() string {
	if w.Kind == SMALL {
		return w.Root + smallDir + "/"
	}
	return w.Root + artifactsDir + "/"
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
	// Artifacts is an AWP workspace's artifacts/ directory.
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
}

// Governed reports whether the place belongs to a workspace.
func (p Place) Governed() bool { return p.Area != "" }

// Locate finds the workspace a path belongs to. isAWPRoot reports whether
// a directory (relative to the repository root, ending in "/"; "" for the
// root itself) holds .awp/workspace.json, in the state before or after
// the change; it is only asked about candidate artifacts directories. The
// innermost governing directory wins: a .small directory inside an
// artifacts directory is a SMALL workspace.
func Locate(path string, isAWPRoot func(root string) bool) Place {
	parts := strings.Split(path, "/")
	for i := len(parts) - 2; i >= 0; i-- {
		name, exact := fold(parts[i])
		root := strings.Join(parts[:i], "/")
		if root != "" {
			root += "/"
		}
		rel := strings.Join(parts[i+1:], "/")
		var p Place
		switch name {
		case smallDir:
			p = Place{Workspace: Workspace{Kind: SMALL, Root: root}, Area: Files, Rel: rel}
		case awpDir:
			p = Place{Workspace: Workspace{Kind: AWP, Root: root}, Area: Private, Rel: rel}
		case artifactsDir:
			if root != "" && (isAWPRoot == nil || !isAWPRoot(root)) {
				continue
			}
			p = Place{Workspace: Workspace{Kind: AWP, Root: root}, Area: Artifacts, Rel: rel}
		default:
			continue
		}
		p.Folded = !exact
		p.Canonical = canonical(parts, i, name)
		return p
	}
	return Place{Canonical: path}
}

// canonical rebuilds path with the governing component at i spelled as it
// should be.
func canonical(parts []string, i int, name string) string {
	out := append(append(append([]string{}, parts[:i]...), name), parts[i+1:]...)
	return strings.Join(out, "/")
}

// Candidate reports whether a path may be governed: one of its directories
// is, or folds to, .small, .awp or artifacts. It is the cheap filter that
// readers apply to every path of an index or tree before Locate decides;
// it does not allocate.
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
