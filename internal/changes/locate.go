package changes

import (
	"cmp"
	"slices"
	"sort"

	"github.com/small-hook/small-hook/internal/workspace"
)

// Locate sets the Place of every change of u: where its path lies, given
// what is declared. The declarations are u.Declared and what the unit's
// own changes declare in any version they hold (a canonical SMALL file, an
// AWP marker, an artifact whose frontmatter declares it), so that the
// states before and after the change count whoever built the unit.
// Deleting a marker therefore does not take the artifacts beside it out
// of the check, and neither does stripping an artifact's frontmatter: such
// a change is marked Undeclared. Locate also puts the changes in path
// order if they are not (Changed relies on it).
func Locate(u *Unit) {
	if !slices.IsSortedFunc(u.Changes, byPath) {
		slices.SortStableFunc(u.Changes, byPath)
	}
	var d workspace.Declarations
	d.AddAll(u.Declared)
	for i := range u.Changes {
		declare(&d, &u.Changes[i])
	}
	for i := range u.Changes {
		ch := &u.Changes[i]
		p := workspace.Locate(ch.Path, d)
		if p.Standalone && strips(ch) {
			p.Undeclared = true
		}
		ch.Place = p
	}
}

func byPath(a, b Change) int { return cmp.Compare(a.Path, b.Path) }

// declare adds to d what the versions of one change declare.
func declare(d *workspace.Declarations, ch *Change) {
	if x, ok := workspace.DeclaredBy(ch.Path); ok {
		d.Add(x)
		return
	}
	x, ok := workspace.ArtifactAt(ch.Path)
	if !ok {
		return
	}
	versions := []*Blob{ch.New, ch.Old}
	if ch.Merge != nil {
		versions = append(append(versions, ch.Merge.Parents...), ch.Merge.Base)
	}
	for _, b := range versions {
		if declaresArtifact(b) {
			d.Add(x)
			return
		}
	}
}

// strips reports a change whose new version is a regular file that does
// not declare itself a knowledge artifact while the version it replaces
// (at any parent, for a merge) did.
func strips(ch *Change) bool {
	if ch.New == nil || ch.New.Kind != KindFile || declaresArtifact(ch.New) {
		return false
	}
	before := []*Blob{ch.Old}
	if ch.Merge != nil {
		before = ch.Merge.Parents
	}
	return slices.ContainsFunc(before, declaresArtifact)
}

// declaresArtifact reports a version that is a regular file declaring
// itself a knowledge artifact.
func declaresArtifact(b *Blob) bool {
	return b != nil && b.Kind == KindFile && workspace.DeclaresArtifact(b.Data)
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

// Changed returns u's change to path, or nil. The changes are sorted by
// path (Locate makes sure of it), so this is a binary search.
func (u *Unit) Changed(path string) *Change {
	i := sort.Search(len(u.Changes), func(i int) bool { return u.Changes[i].Path >= path })
	if i < len(u.Changes) && u.Changes[i].Path == path {
		return &u.Changes[i]
	}
	return nil
}
