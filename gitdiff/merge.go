package gitdiff

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/small-hook/small-hook/changes"
)

// merge is a merge being judged: a merge commit of a range, or the staged
// result of a merge in progress. Both are built the same way, so that the
// staged check and the range check of the same merge agree.
type merge struct {
	parents []*object.Tree
	// base is the tree of the merge base of the first two parents; nil when
	// they share no history.
	base *object.Tree
}

// newMerge reads the trees of a merge's parents and of their merge base.
func (r *Repo) newMerge(parents []plumbing.Hash) (*merge, error) {
	m := &merge{}
	for _, p := range parents {
		t, err := r.commitTree(p)
		if err != nil {
			return nil, err
		}
		m.parents = append(m.parents, t)
	}
	base, err := r.mergeBase(parents[0], parents[1])
	if err != nil {
		return nil, err
	}
	m.base = base
	return m, nil
}

// mergeChangesOf lists the candidate paths whose merge result (read with result)
// differs from at least one parent's version, with every parent's version
// and the merge base's. A path the result took unchanged from one parent,
// while every other parent left it as at the merge base, is left out: the
// merge itself changed nothing there.
func (r *Repo) mergeChangesOf(m *merge, candidates []string, result func(path string) (*entry, error)) ([]changes.Change, error) {
	var list []changes.Change
	for _, path := range candidates {
		n, err := result(path)
		if err != nil {
			return nil, err
		}
		versions := make([]*entry, len(m.parents))
		for i, pt := range m.parents {
			if versions[i], err = r.lookup(pt, path); err != nil {
				return nil, err
			}
		}
		var b *entry
		if m.base != nil {
			if b, err = r.lookup(m.base, path); err != nil {
				return nil, err
			}
		}
		if trivialMerge(n, b, versions) {
			continue
		}
		ch := changes.Change{Path: path, Merge: &changes.Merge{}}
		if ch.New, err = r.optionalBlob(n, nil); err != nil {
			return nil, err
		}
		for _, v := range versions {
			pb, err := r.optionalBlob(v, ch.New)
			if err != nil {
				return nil, err
			}
			ch.Merge.Parents = append(ch.Merge.Parents, pb)
		}
		ch.Old = ch.Merge.Parents[0]
		if ch.Merge.Base, err = r.optionalBlob(b, ch.New); err != nil {
			return nil, err
		}
		list = append(list, ch)
	}
	return list, nil
}

// commitMerge builds the changes of a merge commit: the paths its tree
// holds differently from at least one parent. It also returns the tree of
// the first parent.
func (r *Repo) commitMerge(c *object.Commit, tree *object.Tree, scope Scope) ([]changes.Change, plumbing.Hash, error) {
	m, err := r.newMerge(c.ParentHashes)
	if err != nil {
		return nil, plumbing.ZeroHash, err
	}
	paths := entries{}
	for _, pt := range m.parents {
		old, now := entries{}, entries{}
		if err := r.diffTrees(pt.Hash, tree.Hash, "", scope, old, now); err != nil {
			return nil, plumbing.ZeroHash, err
		}
		addPaths(paths, old, now)
	}
	list, err := r.mergeChangesOf(m, unionPaths(paths), func(path string) (*entry, error) { return r.lookup(tree, path) })
	if err != nil {
		return nil, plumbing.ZeroHash, err
	}
	return list, m.parents[0].Hash, nil
}

// addPaths adds the paths of every set to paths.
func addPaths(paths entries, sets ...entries) {
	for _, s := range sets {
		for p := range s {
			paths[p] = entry{}
		}
	}
}

// lookup returns the file entry at path in a tree, or nil when there is
// none (or it is a directory).
func (r *Repo) lookup(t *object.Tree, path string) (*entry, error) {
	e, err := r.findEntry(t.Hash, path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if e == nil || e.Mode == filemode.Dir {
		return nil, nil
	}
	return &entry{hash: e.Hash, mode: e.Mode}, nil
}

// optionalBlob reads the version at e, if any; with a result, the way an
// old version is read (see oldBlob).
func (r *Repo) optionalBlob(e *entry, result *changes.Blob) (*changes.Blob, error) {
	switch {
	case e == nil:
		return nil, nil
	case result != nil:
		return r.oldBlob(*e, result, nil)
	}
	return r.blob(*e)
}

// trivialMerge reports whether a merge took a file unchanged from one
// parent while every other parent left it as it was at the merge base:
// then the merge itself changed nothing there.
func trivialMerge(now, base *entry, parents []*entry) bool {
	same := func(a, b *entry) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	for i, p := range parents {
		if !same(p, now) {
			continue
		}
		untouched := true
		for j, q := range parents {
			if j != i && !same(q, base) {
				untouched = false
			}
		}
		if untouched {
			return true
		}
	}
	return false
}

// mergeBase returns the tree of the merge base of two commits (nil when
// they share no history).
func (r *Repo) mergeBase(a, b plumbing.Hash) (*object.Tree, error) {
	bases, err := r.mergeBases(a, b)
	if err != nil {
		return nil, fmt.Errorf("merge base of %s and %s: %w", a, b, err)
	}
	if len(bases) == 0 {
		return nil, nil
	}
	return r.commitTree(bases[0])
}
