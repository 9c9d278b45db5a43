package gitdiff

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/small-hook/small-hook/changes"
)

// Range calls fn with one unit per commit reachable from head and not from
// base, parents before children, each compared with its first parent. A
// merge commit's unit lists every in-scope path whose result differs from
// any parent's version, with the versions at every parent and at the merge
// base, so that rules can tell a legitimate merge of two appends from an
// evil merge. Units are built one at a time and only the blobs the next
// commit is likely to share are kept, so memory follows the size of one
// commit, not of the range. It returns the number of commits.
func (r *Repo) Range(base, head string, scope Scope, fn func(changes.Unit) error) (int, error) {
	b, err := r.resolve(base)
	if err != nil {
		return 0, err
	}
	h, err := r.resolve(head)
	if err != nil {
		return 0, err
	}
	commits, err := r.between(b, h)
	if err != nil {
		return 0, err
	}
	for _, c := range commits {
		u, err := r.commitUnit(c, scope)
		if err != nil {
			return 0, fmt.Errorf("commit %s: %w", c.Hash, err)
		}
		if err := fn(u); err != nil {
			return 0, err
		}
		r.keepBlobs(u)
	}
	return len(commits), nil
}

// keepBlobs empties the blob cache but for the new versions of u's
// changes, which the next commit compares with.
func (r *Repo) keepBlobs(u changes.Unit) {
	kept := map[string]*changes.Blob{}
	for _, ch := range u.Changes {
		if ch.New == nil {
			continue
		}
		for k, b := range r.blobs {
			if b == ch.New {
				kept[k] = b
			}
		}
	}
	r.blobs = kept
}

// Resolve turns a revision (branch, tag, SHA, HEAD~2, origin/main) into
// the full id of the commit it names.
func (r *Repo) Resolve(rev string) (string, error) {
	h, err := r.resolve(rev)
	if err != nil {
		return "", err
	}
	return h.String(), nil
}

// resolve turns a revision into a commit id, with an error that says why
// it cannot: no commit yet, a shallow clone, or no such revision.
func (r *Repo) resolve(rev string) (plumbing.Hash, error) {
	h, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		switch {
		case r.unborn(rev):
			return plumbing.ZeroHash, fmt.Errorf("%s: the repository has no commits yet", rev)
		case r.isShallow():
			return plumbing.ZeroHash, fmt.Errorf("unknown revision %q: %w", rev, ErrShallow)
		}
		return plumbing.ZeroHash, fmt.Errorf("unknown revision %q: no branch, tag or commit of this repository has that name", rev)
	}
	if _, err := r.repo.CommitObject(*h); err != nil {
		return plumbing.ZeroHash, r.objectError("commit", *h, err)
	}
	return *h, nil
}

// unborn reports whether rev names HEAD, or the branch HEAD points to,
// while that branch has no commit yet.
func (r *Repo) unborn(rev string) bool {
	head, err := r.repo.Storer.Reference(plumbing.HEAD)
	if err != nil || head.Type() != plumbing.SymbolicReference {
		return false
	}
	if _, err := r.repo.Storer.Reference(head.Target()); err == nil {
		return false
	}
	return rev == "HEAD" || rev == head.Target().String() || rev == head.Target().Short()
}

// commitUnit builds the unit of one commit: what it changed against its
// parent (every parent, for a merge).
func (r *Repo) commitUnit(c *object.Commit, scope Scope) (changes.Unit, error) {
	tree, err := c.Tree()
	if err != nil {
		return changes.Unit{}, r.objectError("tree", c.TreeHash, err)
	}
	u := changes.Unit{Mode: changes.ModeRange, Commit: describe(c), Files: &treeSnapshot{repo: r, tree: tree}}
	switch len(c.ParentHashes) {
	case 0:
		old, now := entries{}, entries{}
		if err := r.diffTrees(plumbing.ZeroHash, tree.Hash, "", scope, old, now); err != nil {
			return changes.Unit{}, err
		}
		u.Changes, err = r.diff(old, now)
	case 1:
		parent, perr := r.commitTree(c.ParentHashes[0])
		if perr != nil {
			return changes.Unit{}, perr
		}
		u.Before = &treeSnapshot{repo: r, tree: parent}
		old, now := entries{}, entries{}
		if err := r.diffTrees(parent.Hash, tree.Hash, "", scope, old, now); err != nil {
			return changes.Unit{}, err
		}
		u.Changes, err = r.diff(old, now)
	default:
		u.Changes, u.Before, err = r.mergeChanges(c, tree, scope)
	}
	if err != nil {
		return changes.Unit{}, err
	}
	return u, nil
}

// mergeChanges lists the paths a merge result holds differently from at
// least one parent, with every parent's version and the merge base's.
func (r *Repo) mergeChanges(c *object.Commit, tree *object.Tree, scope Scope) ([]changes.Change, changes.Snapshot, error) {
	parents := make([]*object.Tree, len(c.ParentHashes))
	paths := entries{}
	for i, p := range c.ParentHashes {
		pt, err := r.commitTree(p)
		if err != nil {
			return nil, nil, err
		}
		parents[i] = pt
		old, now := entries{}, entries{}
		if err := r.diffTrees(pt.Hash, tree.Hash, "", scope, old, now); err != nil {
			return nil, nil, err
		}
		for p := range old {
			paths[p] = entry{}
		}
		for p := range now {
			paths[p] = entry{}
		}
	}
	base, err := r.mergeBase(c)
	if err != nil {
		return nil, nil, err
	}
	var list []changes.Change
	for _, path := range unionPaths(paths) {
		n, err := lookup(tree, path)
		if err != nil {
			return nil, nil, err
		}
		versions := make([]*entry, len(parents))
		for i, pt := range parents {
			if versions[i], err = lookup(pt, path); err != nil {
				return nil, nil, err
			}
		}
		var b *entry
		if base != nil {
			if b, err = lookup(base, path); err != nil {
				return nil, nil, err
			}
		}
		if trivialMerge(n, b, versions) {
			continue
		}
		ch := changes.Change{Path: path, Merge: &changes.Merge{}}
		if ch.New, err = r.optionalBlob(n); err != nil {
			return nil, nil, err
		}
		for _, v := range versions {
			pb, err := r.optionalBlob(v)
			if err != nil {
				return nil, nil, err
			}
			ch.Merge.Parents = append(ch.Merge.Parents, pb)
		}
		ch.Old = ch.Merge.Parents[0]
		if ch.Merge.Base, err = r.optionalBlob(b); err != nil {
			return nil, nil, err
		}
		list = append(list, ch)
	}
	return list, &treeSnapshot{repo: r, tree: parents[0]}, nil
}

// lookup returns the file entry at path in a tree, or nil when there is
// none (or it is a directory).
func lookup(t *object.Tree, path string) (*entry, error) {
	e, err := t.FindEntry(path)
	if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if e.Mode == filemode.Dir {
		return nil, nil
	}
	return &entry{hash: e.Hash, mode: e.Mode}, nil
}

func (r *Repo) optionalBlob(e *entry) (*changes.Blob, error) {
	if e == nil {
		return nil, nil
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

// mergeBase returns the tree of the merge base of a merge's first two
// parents (nil when they share no history).
func (r *Repo) mergeBase(c *object.Commit) (*object.Tree, error) {
	p0, err := r.repo.CommitObject(c.ParentHashes[0])
	if err != nil {
		return nil, r.objectError("commit", c.ParentHashes[0], err)
	}
	p1, err := r.repo.CommitObject(c.ParentHashes[1])
	if err != nil {
		return nil, r.objectError("commit", c.ParentHashes[1], err)
	}
	bases, err := p0.MergeBase(p1)
	if err != nil {
		return nil, fmt.Errorf("merge base of %s: %w", c.Hash, err)
	}
	if len(bases) == 0 {
		return nil, nil
	}
	tree, err := bases[0].Tree()
	if err != nil {
		return nil, r.objectError("tree", bases[0].TreeHash, err)
	}
	return tree, nil
}

func describe(c *object.Commit) *changes.Commit {
	out := &changes.Commit{
		Hash:      c.Hash.String(),
		Message:   c.Message,
		Author:    changes.Identity{Name: c.Author.Name, Email: c.Author.Email},
		Committer: changes.Identity{Name: c.Committer.Name, Email: c.Committer.Email},
	}
	for _, p := range c.ParentHashes {
		out.Parents = append(out.Parents, p.String())
	}
	return out
}
