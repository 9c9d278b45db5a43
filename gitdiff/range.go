package gitdiff

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/small-hook/small-hook/internal/changes"
)

// Range calls fn with one unit per commit reachable from head and not from
// base (every commit reachable from head when base is "", the root commit
// judged as adding its files), parents before children, each compared
// with its first parent. A
// merge commit's unit lists every in-scope path whose result differs from
// any parent's version, with the versions at every parent and at the merge
// base, so that rules can tell a legitimate merge of two appends from an
// evil merge. It returns the number of commits.
//
// The next commit's unit is built while fn checks the current one: a
// second Repo (a twin, sharing nothing with r) reads the objects on its
// own goroutine, and what fn reads on demand (the units' snapshots, the
// signed payloads) r reads on fn's goroutine. Only the blobs the next
// commit is likely to share are kept, so memory follows the size of two
// commits, not of the range.
func (r *Repo) Range(base, head string, scope Scope, fn func(changes.Unit) error) (int, error) {
	var bases []string
	if base != "" {
		bases = []string{base}
	}
	return r.RangeExcluding(bases, head, scope, fn)
}

// RangeExcluding is Range over the commits reachable from head and from
// none of excluded (`git rev-list head --not excluded...`): what a push
// adds to the refs its receiver already has. Without excluded it is every
// commit reachable from head, the root included.
func (r *Repo) RangeExcluding(excluded []string, head string, scope Scope, fn func(changes.Unit) error) (int, error) {
	var bases []plumbing.Hash
	for _, rev := range excluded {
		b, err := r.resolve(rev)
		if err != nil {
			return 0, err
		}
		bases = append(bases, b)
	}
	h, err := r.resolve(head)
	if err != nil {
		return 0, err
	}
	commits, err := r.between(bases, h)
	if err != nil {
		return 0, err
	}
	if err := r.eachUnit(commits, scope, fn); err != nil {
		return 0, err
	}
	return len(commits), nil
}

// eachUnit calls fn with the unit of each commit in turn, building the
// next one on a twin while fn checks the current one (see Range).
func (r *Repo) eachUnit(commits []*object.Commit, scope Scope, fn func(changes.Unit) error) error {
	builder, err := r.twin()
	if err != nil {
		return err
	}
	g, err := builder.newGovernor(scope)
	if err != nil {
		builder.Close()
		return err
	}
	units := make(chan builtUnit)
	stop := make(chan struct{})
	go builder.buildUnits(commits, g, scope, r, units, stop)
	defer func() {
		close(stop)
		for range units {
		}
		builder.Close()
	}()
	for next := range units {
		if next.err != nil {
			return next.err
		}
		if err := fn(next.unit); err != nil {
			return err
		}
		clear(r.blobs)
		r.nextUnitTrees()
	}
	return nil
}

// builtUnit is a commit's unit, or why it could not be built.
type builtUnit struct {
	unit changes.Unit
	err  error
}

// buildUnits sends the unit of each commit in turn, until the first error
// or until stop is closed, and then closes units. The units read on demand
// through reader. g decides what is governed, from what the units before
// were governed by.
func (r *Repo) buildUnits(commits []*object.Commit, g *governor, scope Scope, reader *Repo, units chan<- builtUnit, stop <-chan struct{}) {
	defer close(units)
	for _, c := range commits {
		select {
		case <-stop:
			return
		default:
		}
		u, err := r.commitUnit(c, g.unit(scope), reader)
		if err != nil {
			err = fmt.Errorf("commit %s: %w", c.Hash, err)
		} else {
			// Before sending: the unit belongs to fn's goroutine then.
			r.keepBlobs(u)
			r.nextUnitTrees()
		}
		select {
		case units <- builtUnit{unit: u, err: err}:
		case <-stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// keepBlobs empties the blob cache but for the new versions of u's
// changes that were read, which the next commit compares with.
func (r *Repo) keepBlobs(u changes.Unit) {
	keep := make(map[*changes.Blob]bool, len(u.Changes))
	for _, ch := range u.Changes {
		if ch.New != nil {
			keep[ch.New] = true
		}
	}
	kept := map[versionKey]*changes.Blob{}
	for k, b := range r.blobs {
		if keep[b] {
			kept[k] = b
		}
	}
	r.blobs = kept
}

// commitUnit builds the unit of one commit: what it changed against its
// parent (every parent, for a merge). What the unit reads on demand,
// reader reads.
func (r *Repo) commitUnit(c *object.Commit, scope *unitScope, reader *Repo) (changes.Unit, error) {
	tree, err := r.tree(c.TreeHash)
	if err != nil {
		return changes.Unit{}, err
	}
	u := changes.Unit{Mode: changes.ModeRange, Commit: reader.describe(c), Files: &treeSnapshot{repo: reader, hash: tree.hash}, Loader: reader.loader()}
	switch len(c.ParentHashes) {
	case 0:
		u.Changes, err = r.treeChanges(nil, tree, scope)
	case 1:
		parent, perr := r.commitTree(c.ParentHashes[0])
		if perr != nil {
			return changes.Unit{}, perr
		}
		u.Before = &treeSnapshot{repo: reader, hash: parent.hash}
		u.Changes, err = r.treeChanges(parent, tree, scope)
	default:
		var first plumbing.Hash
		u.Changes, first, err = r.commitMerge(c, tree, scope)
		u.Before = &treeSnapshot{repo: reader, hash: first}
	}
	if err != nil {
		return changes.Unit{}, err
	}
	u.Declared = scope.declared
	return u, nil
}

// treeChanges returns the governed changes between two trees (before nil
// for none).
func (r *Repo) treeChanges(before, after *treeObject, scope *unitScope) ([]changes.Change, error) {
	from := plumbing.ZeroHash
	states := []declState{}
	if before != nil {
		from = before.hash
		states = append(states, r.treeState(before))
	}
	old, now := entries{}, entries{}
	if err := r.diffTrees(from, after.hash, "", scope.Scope, old, now); err != nil {
		return nil, err
	}
	states = append([]declState{r.entriesState(old), r.entriesState(now)}, append(states, r.treeState(after))...)
	keep, err := scope.governed(unionPaths(old, now), states...)
	if err != nil {
		return nil, err
	}
	return r.diff(only(old, keep), only(now, keep))
}

// describe returns the plain description of a commit; the payload its
// signature signs is read only when asked for.
func (r *Repo) describe(c *object.Commit) *changes.Commit {
	h := c.Hash
	out := &changes.Commit{
		Hash:          c.Hash.String(),
		Message:       c.Message,
		Author:        changes.Identity{Name: c.Author.Name, Email: c.Author.Email},
		Committer:     changes.Identity{Name: c.Committer.Name, Email: c.Committer.Email},
		CommitterTime: c.Committer.When,
		AuthorTime:    c.Author.When,
		Signature:     c.PGPSignature,
		Payload:       func() ([]byte, error) { return r.signedPayload(h) },
	}
	for _, p := range c.ParentHashes {
		out.Parents = append(out.Parents, p.String())
	}
	return out
}
