package gitdiff

import (
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/small-hook/small-hook/internal/changes"
)

// History is every commit reachable from a head that the clone holds,
// parents before children: down to the root commits, or, in a shallow
// clone, down to the boundary commits whose parents the clone lacks. It is
// what the ledger walks; unlike Range, it does not refuse a shallow clone,
// it says where the clone's history begins.
type History struct {
	repo    *Repo
	commits []*object.Commit
	list    []HistoryCommit
}

// HistoryCommit is one commit of a History.
type HistoryCommit struct {
	// Hash is the full commit id.
	Hash string
	// Parents are the full ids of its parents, first parent first; none
	// for a root commit and for a boundary commit.
	Parents []string
	// Boundary marks a commit of a shallow clone's boundary: the clone
	// lacks its parents, so its unit lists every in-scope file as added,
	// as a root commit's does, although the commit may have changed none
	// of them.
	Boundary bool
}

// History lists the commits reachable from head (a revision, as Resolve
// takes it).
func (r *Repo) History(head string) (*History, error) {
	h, err := r.resolve(head)
	if err != nil {
		return nil, err
	}
	g, err := r.newGraph()
	if err != nil {
		return nil, err
	}
	defer g.Close()
	hashes, err := g.reachable(h, true)
	if err != nil {
		return nil, err
	}
	commits := make([]*object.Commit, 0, len(hashes))
	for _, id := range hashes {
		c, err := r.commit(id)
		if err != nil {
			return nil, err
		}
		if g.shallow[id] {
			boundary := *c
			boundary.ParentHashes = nil
			c = &boundary
		}
		commits = append(commits, c)
	}
	out := &History{repo: r, commits: topoOrder(commits)}
	for _, c := range out.commits {
		hc := HistoryCommit{Hash: c.Hash.String(), Boundary: g.shallow[c.Hash]}
		for _, p := range c.ParentHashes {
			hc.Parents = append(hc.Parents, p.String())
		}
		out.list = append(out.list, hc)
	}
	return out, nil
}

// Commits returns the commits in the order Units visits them.
func (h *History) Commits() []HistoryCommit { return h.list }

// Units calls fn with one unit per commit, in the order of Commits, each
// compared with its parents as Range compares them (a root or boundary
// commit adds every in-scope file it holds), every version read.
func (h *History) Units(scope Scope, fn func(changes.Unit) error) error {
	return h.repo.eachUnit(h.commits, scope, func(u changes.Unit) error {
		if err := u.ReadAll(); err != nil {
			return err
		}
		return fn(u)
	})
}
