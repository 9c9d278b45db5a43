package gitdiff

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/small-hook/small-hook/internal/changes"
)

// merge is a merge being judged: a merge commit of a range, or the staged
// result of a merge in progress. Both are built the same way, so that the
// staged check and the range check of the same merge agree. A merge of any
// number of parents (an octopus) is judged against every parent and every
// merge base of every two of them.
type merge struct {
	// repo reads the trees.
	repo    *Repo
	parents []*treeObject
	// pairs are the parents taken two at a time, each with the trees of
	// every merge base of the two (none when they share no history).
	pairs []mergePair
	// bases are the trees of every merge base of any two parents, each
	// commit once, those of the first two parents first; a nil tree stands
	// for parents that share no history (every file absent).
	bases []*treeObject
}

// mergePair is two parents of a merge, by index, and their merge bases.
type mergePair struct {
	i, j  int
	bases []*treeObject
}

// newMerge reads the trees of a merge's parents and of the merge bases of
// every two of them.
func (r *Repo) newMerge(parents []plumbing.Hash) (*merge, error) {
	m := &merge{repo: r}
	for _, p := range parents {
		t, err := r.commitTree(p)
		if err != nil {
			return nil, err
		}
		m.parents = append(m.parents, t)
	}
	seen := map[plumbing.Hash]bool{}
	unrelated := false
	for i := range parents {
		for j := i + 1; j < len(parents); j++ {
			ids, err := r.mergeBases(parents[i], parents[j])
			if err != nil {
				return nil, err
			}
			pair := mergePair{i: i, j: j}
			for _, id := range ids {
				t, err := r.commitTree(id)
				if err != nil {
					return nil, err
				}
				pair.bases = append(pair.bases, t)
				if !seen[id] {
					seen[id] = true
					m.bases = append(m.bases, t)
				}
			}
			if len(ids) == 0 && !unrelated {
				unrelated = true
				m.bases = append(m.bases, nil)
			}
			m.pairs = append(m.pairs, pair)
		}
	}
	return m, nil
}

// mergeChangesOf lists the candidate paths whose merge result (read with result)
// differs from at least one parent's version, with every parent's version
// and the merge base's, read when there are few (see readFew). A path the result took unchanged from one parent,
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
		bases, err := m.baseVersions(path)
		if err != nil {
			return nil, err
		}
		trivial, err := m.trivial(path, n, versions)
		if err != nil {
			return nil, err
		}
		if trivial {
			continue
		}
		ch := changes.Change{Path: path, New: r.optionalVersion(n), Merge: &changes.Merge{}}
		for _, v := range versions {
			ch.Merge.Parents = append(ch.Merge.Parents, r.optionalVersion(v))
		}
		ch.Old = ch.Merge.Parents[0]
		for _, b := range bases {
			ch.Merge.Bases = append(ch.Merge.Bases, r.optionalVersion(b))
		}
		ch.Merge.Base = ch.Merge.Bases[0]
		list = append(list, ch)
	}
	return list, r.readFew(list)
}

// commitMerge builds the changes of a merge commit: the paths its tree
// holds differently from at least one parent. It also returns the tree of
// the first parent.
func (r *Repo) commitMerge(c *object.Commit, tree *treeObject, scope *unitScope) ([]changes.Change, plumbing.Hash, error) {
	m, err := r.newMerge(c.ParentHashes)
	if err != nil {
		return nil, plumbing.ZeroHash, err
	}
	paths := entries{}
	for _, pt := range m.parents {
		old, now := entries{}, entries{}
		if err := r.diffTrees(pt.hash, tree.hash, "", scope.Scope, old, now); err != nil {
			return nil, plumbing.ZeroHash, err
		}
		addPaths(paths, old, now)
	}
	candidates, err := m.governed(scope, unionPaths(paths), r.treeState(tree))
	if err != nil {
		return nil, plumbing.ZeroHash, err
	}
	list, err := r.mergeChangesOf(m, candidates, func(path string) (*entry, error) { return r.lookup(tree, path) })
	if err != nil {
		return nil, plumbing.ZeroHash, err
	}
	return list, m.parents[0].hash, nil
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
func (r *Repo) lookup(t *treeObject, path string) (*entry, error) {
	e, ok, err := r.findEntry(t.hash, path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if !ok || e.mode == filemode.Dir {
		return nil, nil
	}
	return &e, nil
}

// optionalVersion is the version at e (see Repo.version), nil for none.
func (r *Repo) optionalVersion(e *entry) *changes.Blob {
	if e == nil {
		return nil
	}
	return r.version(*e)
}

// baseVersions returns the file at path in every merge base (m.bases).
func (m *merge) baseVersions(path string) ([]*entry, error) {
	out := make([]*entry, len(m.bases))
	for k, t := range m.bases {
		if t == nil {
			continue
		}
		var err error
		if out[k], err = m.repo.lookup(t, path); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// trivial reports whether the merge took the file at path (now) unchanged
// from one parent while every other parent left it as it was at each merge
// base it shares with that parent: then the merge itself changed nothing
// there. A parent that is older than the others (an octopus merge naming
// an old commit of the branch) shares that old commit as merge base with
// them, so a result taken from it, undoing what the others changed, is
// never trivial. versions holds the file at each parent.
func (m *merge) trivial(path string, now *entry, versions []*entry) (bool, error) {
	for i, p := range versions {
		if !sameEntry(p, now) {
			continue
		}
		untouched := true
		for _, pair := range m.pairs {
			if pair.i != i && pair.j != i {
				continue
			}
			other := versions[pair.i+pair.j-i]
			ok, err := m.unchangedSince(other, path, pair.bases)
			if err != nil {
				return false, err
			}
			if !ok {
				untouched = false
				break
			}
		}
		if untouched {
			return true, nil
		}
	}
	return false, nil
}

// unchangedSince reports whether the file at path is v in every one of the
// trees bases (absent when there are none: unrelated histories).
func (m *merge) unchangedSince(v *entry, path string, bases []*treeObject) (bool, error) {
	if len(bases) == 0 {
		return v == nil, nil
	}
	for _, t := range bases {
		b, err := m.repo.lookup(t, path)
		if err != nil {
			return false, err
		}
		if !sameEntry(v, b) {
			return false, nil
		}
	}
	return true, nil
}

// sameEntry reports whether two versions are the same (both absent, or the
// same object with the same mode).
func sameEntry(a, b *entry) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}
