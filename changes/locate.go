package changes

import (
	"fmt"

	"github.com/small-hook/small-hook/workspace"
)

// Locate sets the Place of every change of u: the workspace its path
// belongs to. A directory is an AWP workspace when it holds
// .awp/workspace.json before or after the change, so that deleting the
// marker does not take the artifacts beside it out of the check.
func Locate(u *Unit) error {
	roots := map[string]bool{}
	var failed error
	isAWPRoot := func(root string) bool {
		if known, ok := roots[root]; ok {
			return known
		}
		found := false
		for _, s := range []Snapshot{u.Files, u.Before} {
			if s == nil || found {
				continue
			}
			b, err := s.Read(root + workspace.Marker)
			if err != nil && failed == nil {
				failed = fmt.Errorf("reading %s: %w", root+workspace.Marker, err)
			}
			found = b != nil
		}
		roots[root] = found
		return found
	}
	for i := range u.Changes {
		u.Changes[i].Place = workspace.Locate(u.Changes[i].Path, isAWPRoot)
	}
	return failed
}

// Workspaces lists the workspaces of kind that u's changes belong to, in
// the order of their first change (changes are sorted by path, so this is
// sorted too). Folded paths do not count: they are refused, not judged as
// the files they stand for.
func (u *Unit) Workspaces(kind workspace.Kind) []workspace.Workspace {
	seen := map[workspace.Workspace]bool{}
	var out []workspace.Workspace
	for _, ch := range u.Changes {
		w := ch.Place.Workspace
		if !ch.Place.Governed() || ch.Place.Folded || w.Kind != kind || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	return out
}

// Changed returns u's change to path, or nil.
func (u *Unit) Changed(path string) *Change {
	for i := range u.Changes {
		if u.Changes[i].Path == path {
			return &u.Changes[i]
		}
	}
	return nil
}
