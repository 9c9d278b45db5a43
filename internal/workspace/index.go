package workspace

import (
	"slices"
	"strings"
)

// rootIndex holds the roots of declared workspaces by their directories,
// one node per directory, so that the workspaces declared along a path
// are found in one reading of it (see Declarations.along) rather than by
// looking each of its directories up anew.
type rootIndex struct {
	children map[string]*rootIndex
	// kinds are the kinds of workspace declared with this directory as
	// their root.
	kinds []Kind
}

// add indexes a declared workspace. A root that is neither "" nor ends in
// "/" names no directory of any path, and is left out.
func (r *rootIndex) add(ws Workspace) {
	if ws.Root != "" && !strings.HasSuffix(ws.Root, "/") {
		return
	}
	n := r
	for rest := ws.Root; rest != ""; {
		var name string
		name, rest, _ = strings.Cut(rest, "/")
		next, ok := n.children[name]
		if !ok {
			if n.children == nil {
				n.children = map[string]*rootIndex{}
			}
			next = &rootIndex{}
			n.children[name] = next
		}
		n = next
	}
	if !slices.Contains(n.kinds, ws.Kind) {
		n.kinds = append(n.kinds, ws.Kind)
	}
}

// along returns, for the directories of path from the root down, the
// kinds of workspace declared with each as their root: out[k] for the
// root that holds the path's first k directories (out[0] for the
// repository root), as far as any declared root reaches.
func (r *rootIndex) along(path string) [][]Kind {
	if r == nil {
		return nil
	}
	out := [][]Kind{r.kinds}
	for n := r; ; {
		name, rest, found := strings.Cut(path, "/")
		if !found {
			return out
		}
		if n = n.children[name]; n == nil {
			return out
		}
		out, path = append(out, n.kinds), rest
	}
}
