package changes

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/small-hook/small-hook/internal/workspace"
)

// Locate sets the Place of every change of u: where its path lies, given
// what is declared. The declarations are u.Declared and what the unit's
// own changes declare in any version they hold (a canonical SMALL file, an
// AWP marker, an artifact whose frontmatter declares it), so that the
// states before and after the change count whoever built the unit.
// Deleting a marker therefore does not take the artifacts beside it out
// of the check, and neither does stripping an artifact's frontmatter: such
// a change is marked Undeclared. An artifact's versions are read (through
// u's Loader, when the unit leaves them unread) only where what they
// declare counts: no workspace that is declared governs the path more
// closely. Locate also puts the changes in path order if they are not
// (Changed relies on it).
func Locate(u *Unit) error {
	if !slices.IsSortedFunc(u.Changes, byPath) {
		slices.SortStableFunc(u.Changes, byPath)
	}
	var d workspace.Declarations
	d.AddAll(u.Declared)
	for i := range u.Changes {
		if x, ok := workspace.DeclaredBy(u.Changes[i].Path); ok {
			d.Add(x)
		}
	}
	var artifacts []*Change
	for i := range u.Changes {
		if ch := &u.Changes[i]; contentCounts(ch.Path, d) {
			artifacts = append(artifacts, ch)
		}
	}
	stripped := map[*Change]bool{}
	err := u.eachRead(artifacts, locateBytes, func(k int, ch *Change) {
		declare(&d, ch)
		if strips(ch) {
			stripped[artifacts[k]] = true
		}
	})
	if err != nil {
		return err
	}
	for i := range u.Changes {
		ch := &u.Changes[i]
		p := workspace.Locate(ch.Path, d)
		if p.Standalone && stripped[ch] {
			p.Undeclared = true
		}
		ch.Place = p
	}
	return nil
}

// locateBytes is about how many bytes of artifacts Locate reads at once
// when the unit leaves them unread.
const locateBytes = 256 << 10

// contentCounts reports whether what the versions of a change to path say
// can decide where it lies: path is where a knowledge artifact may declare
// itself, and no workspace d declares governs it more closely (see
// workspace.Needs, innermost first).
func contentCounts(path string, d workspace.Declarations) bool {
	if !strings.HasSuffix(path, ".md") {
		return false // a cheap test first: an artifact is a Markdown file
	}
	for _, x := range workspace.Needs(path) {
		if x.Artifact != "" {
			return true
		}
		if d.Has(x) {
			return false
		}
	}
	return false
}

func byPath(a, b Change) int { return cmp.Compare(a.Path, b.Path) }

// declare adds to d what the versions of a change to an artifact's path
// declare.
func declare(d *workspace.Declarations, ch *Change) {
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
