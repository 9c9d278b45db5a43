package gitdiff

import "github.com/small-hook/small-hook/internal/changes"

// Tip compares the tip a push replaces (previous) with the new tip (head).
// It returns nil when head contains previous: the push only adds commits,
// and Range judges each of them. Otherwise the branch was rewritten (a
// force-push, a reset, an orphan branch) and the returned unit lists every
// in-scope path that differs between the two tips, Old at previous and New
// at head, for the rules that judge whether history continues. Its Commit
// is head, its Previous the full id of previous, and its Before reads
// previous. onto is the trusted revision a rebase may have moved the
// branch onto, whose entries may stand between the previous tip's (each
// change's Merge.Onto); "" for none.
func (r *Repo) Tip(previous, head, onto string, scope Scope) (*changes.Unit, error) {
	p, err := r.resolve(previous)
	if err != nil {
		return nil, err
	}
	h, err := r.resolve(head)
	if err != nil {
		return nil, err
	}
	contained, err := r.contains(h, p)
	if err != nil || contained {
		return nil, err
	}
	oldTree, err := r.commitTree(p)
	if err != nil {
		return nil, err
	}
	newTree, err := r.commitTree(h)
	if err != nil {
		return nil, err
	}
	c, err := r.commit(h)
	if err != nil {
		return nil, err
	}
	g, err := r.newGovernor(scope)
	if err != nil {
		return nil, err
	}
	us := g.unit(scope)
	list, err := r.treeChanges(oldTree, newTree, us)
	if err != nil {
		return nil, err
	}
	var ontoTree *treeObject
	if onto != "" {
		o, err := r.resolve(onto)
		if err != nil {
			return nil, err
		}
		if ontoTree, err = r.commitTree(o); err != nil {
			return nil, err
		}
	}
	for i := range list {
		ch := &list[i]
		if ch.Old == nil || ch.New == nil {
			continue
		}
		ch.Merge = &changes.Merge{Parents: []*changes.Blob{ch.Old}}
		if ontoTree != nil {
			e, err := r.lookup(ontoTree, ch.Path)
			if err == nil && e != nil {
				ch.Merge.Onto, err = r.blob(*e)
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return &changes.Unit{
		Mode:     changes.ModeTip,
		Commit:   r.describe(c),
		Changes:  list,
		Files:    &treeSnapshot{repo: r, hash: newTree.hash},
		Before:   &treeSnapshot{repo: r, hash: oldTree.hash},
		Declared: us.declared,
		Previous: p.String(),
		Loader:   r.loader(),
	}, nil
}
