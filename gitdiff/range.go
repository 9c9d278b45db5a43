package gitdiff

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Range calls fn with one unit per commit reachable from head and not from
// base, parents before children, each compared with its first parent. A
// merge commit's unit lists every in-scope path whose result differs from
// any parent's version, with the versions at every parent and at the merge
// base, so that rules can tell a legitimate merge of two appends from an
// evil merge. Units are built one at a time and only the blobs the next
// commit is likely to share are kept, so memory follows the size of one
// commit, not of the range. It returns the number of commits.
func (r *Repo) Range(base, head string, scope Scope, fn func(Unit) error) (int, error) {
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
func (r *Repo) keepBlobs(u Unit) {
	kept := map[string]*Blob{}
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

// resolve turns a revision (branch, tag, SHA, HEAD~2, origin/main) into a
// commit id.
func (r *Repo) resolve(rev string) (plumbing.Hash, error) {
	h, err := r.repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		if r.isShallow() {
			return plumbing.ZeroHash, fmt.Errorf("revision %q is not in this clone: %w", rev, ErrShallow)
		}
		return plumbing.ZeroHash, fmt.Errorf("unknown revision %q: %w", rev, err)
	}
	if _, err := r.repo.CommitObject(*h); err != nil {
		return plumbing.ZeroHash, r.objectError("commit", *h, err)
	}
	return *h, nil
}

func (r *Repo) commitUnit(c *object.Commit, scope Scope) (Unit, error) {
	tree, err := c.Tree()
	if err != nil {
		return Unit{}, r.objectError("tree", c.TreeHash, err)
	}
	now, err := r.treeEntries(tree, scope)
	if err != nil {
		return Unit{}, err
	}
	parents := make([]entries, len(c.ParentHashes))
	for i, p := range c.ParentHashes {
		pt, err := r.commitTree(p)
		if err != nil {
			return Unit{}, err
		}
		if parents[i], err = r.treeEntries(pt, scope); err != nil {
			return Unit{}, err
		}
	}
	var changes []Change
	switch len(parents) {
	case 0:
		changes, err = r.diff(entries{}, now)
	case 1:
		changes, err = r.diff(parents[0], now)
	default:
		changes, err = r.mergeChanges(c, now, parents, scope)
	}
	if err != nil {
		return Unit{}, err
	}
	return Unit{Mode: ModeRange, Commit: describe(c), Changes: changes, Files: &snapshot{repo: r, entries: now}}, nil
}

// mergeChanges lists the paths a merge result holds differently from at
// least one parent, with every parent's version and the merge base's.
func (r *Repo) mergeChanges(c *object.Commit, now entries, parents []entries, scope Scope) ([]Change, error) {
	base, err := r.mergeBase(c, scope)
	if err != nil {
		return nil, err
	}
	var changes []Change
	for _, path := range unionPaths(append([]entries{now}, parents...)...) {
		n, hasNew := now[path]
		if trivialMerge(path, now, base, parents) {
			continue
		}
		ch := Change{Path: path, Merge: &Merge{}}
		if hasNew {
			if ch.New, err = r.blob(n); err != nil {
				return nil, err
			}
		}
		for _, p := range parents {
			var pb *Blob
			if e, ok := p[path]; ok {
				if pb, err = r.blob(e); err != nil {
					return nil, err
				}
			}
			ch.Merge.Parents = append(ch.Merge.Parents, pb)
		}
		ch.Old = ch.Merge.Parents[0]
		if e, ok := base[path]; ok {
			if ch.Merge.Base, err = r.blob(e); err != nil {
				return nil, err
			}
		}
		changes = append(changes, ch)
	}
	return changes, nil
}

// trivialMerge reports whether a merge took path unchanged from one parent
// while every other parent left it as it was at the merge base: then the
// merge itself changed nothing there.
func trivialMerge(path string, now, base entries, parents []entries) bool {
	n, hasNew := now[path]
	b, inBase := base[path]
	for i, p := range parents {
		if e, ok := p[path]; ok != hasNew || (ok && e != n) {
			continue
		}
		untouched := true
		for j, q := range parents {
			if j == i {
				continue
			}
			if e, ok := q[path]; ok != inBase || (ok && e != b) {
				untouched = false
			}
		}
		if untouched {
			return true
		}
	}
	return false
}

// mergeBase returns the in-scope entries at the merge base of a merge's
// first two parents (none when they share no history).
func (r *Repo) mergeBase(c *object.Commit, scope Scope) (entries, error) {
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
		return entries{}, nil
	}
	tree, err := bases[0].Tree()
	if err != nil {
		return nil, r.objectError("tree", bases[0].TreeHash, err)
	}
	return r.treeEntries(tree, scope)
}

func describe(c *object.Commit) *Commit {
	out := &Commit{
		Hash:      c.Hash.String(),
		Message:   c.Message,
		Author:    Identity{Name: c.Author.Name, Email: c.Author.Email},
		Committer: Identity{Name: c.Committer.Name, Email: c.Committer.Email},
	}
	for _, p := range c.ParentHashes {
		out.Parents = append(out.Parents, p.String())
	}
	return out
}
