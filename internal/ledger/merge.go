package ledger

import (
	"fmt"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/persistent"
)

// mergedSnapshot is what a merge commit holds of the files its unit does
// not list: gitdiff leaves out a file the merge took unchanged from one
// parent while the others kept the merge base's version. Where the
// parents hold the same version, that is it; where they differ, the
// merge's own tree says which one it took.
func (b *Builder) mergedSnapshot(n *node, u *changes.Unit) (snapshot, error) {
	listed := map[string]bool{}
	for _, ch := range u.Changes {
		listed[ch.Path] = true
	}
	first := b.snaps[n.parents[0]]
	out := first
	var err error
	for _, p := range n.parents[1:] {
		// Where a parent holds the first parent's version, so does the
		// merge: only the files they differ on are looked at.
		persistent.Diff(first, b.snaps[p], func(path string) {
			if err != nil || listed[path] {
				return
			}
			listed[path] = true
			v, e := b.takenVersion(n, u, path)
			switch {
			case e != nil:
				err = e
			case v == nil:
				out = out.Without(path)
			default:
				out = out.With(path, v)
			}
		})
	}
	return out, err
}

// takenVersion returns the version of path that a merge took from one of
// its parents (nil: none, the merge does not hold the file).
func (b *Builder) takenVersion(n *node, u *changes.Unit, path string) (*version, error) {
	var versions []*version
	same := true
	for _, p := range n.parents {
		v, _ := b.snaps[p].Get(path)
		if len(versions) > 0 && !sameVersion(v, versions[0]) {
			same = false
		}
		versions = append(versions, v)
	}
	if same {
		return versions[0], nil
	}
	blob, err := u.Files.Read(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s at %s: %w", path, n.Hash, err)
	}
	for _, v := range versions {
		if blob == nil && v == nil || blob != nil && v != nil && v.hash == blob.Hash {
			return v, nil
		}
	}
	return nil, fmt.Errorf("%s at merge %s is none of its parents' versions, yet the merge does not list it", path, n.Hash)
}

func sameVersion(a, b *version) bool {
	return a == b || a != nil && b != nil && a.hash == b.hash
}
