package gitdiff

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	commitgraph "github.com/go-git/go-git/v5/plumbing/format/commitgraph/v2"

	"github.com/small-hook/small-hook/internal/gitread"
)

// node is what a range walk needs of one commit.
type node struct {
	parents []plumbing.Hash
	// level is the commit's topological level: 1 for a root, else one
	// more than its highest parent. A commit's level is always above its
	// parents', whatever the dates say. 0 means not known yet.
	level uint64
	// shallow marks a shallow clone's boundary: its parents are not in
	// the clone.
	shallow bool
}

// graph reads commits for a walk: from the commit-graph file when the
// repository has one (git gc and `git commit-graph write` create it), which
// also gives each commit's topological level, and otherwise from the
// commit objects.
type graph struct {
	repo    *Repo
	index   commitgraph.Index // nil without a usable commit-graph
	nodes   map[plumbing.Hash]*node
	shallow map[plumbing.Hash]bool
}

// newGraph prepares a walk of r's commits. Close it when done.
func (r *Repo) newGraph() (*graph, error) {
	g := &graph{repo: r, nodes: map[plumbing.Hash]*node{}, shallow: map[plumbing.Hash]bool{}}
	boundary, err := r.storage.Shallow()
	if err != nil {
		return nil, fmt.Errorf("reading the shallow boundary: %w", err)
	}
	for _, h := range boundary {
		g.shallow[h] = true
	}
	if len(boundary) == 0 {
		// git ignores the commit-graph in a shallow clone; so does this.
		// A missing or unreadable commit-graph only makes walks slower.
		if idx, err := commitgraph.OpenChainOrFileIndex(osfs.New(filepath.Dir(r.objectsDir()))); err == nil {
			g.index = idx
		}
	}
	return g, nil
}

// Close releases the commit-graph file.
func (g *graph) Close() error {
	if g.index == nil {
		return nil
	}
	return g.index.Close()
}

// get returns the node of commit h.
func (g *graph) get(h plumbing.Hash) (*node, error) {
	if n, ok := g.nodes[h]; ok {
		return n, nil
	}
	n, err := g.fromIndex(h)
	if err != nil {
		return nil, err
	}
	if n == nil {
		parents, err := g.repo.parents(h)
		if err != nil {
			return nil, err
		}
		n = &node{parents: parents}
	}
	n.shallow = g.shallow[h]
	g.nodes[h] = n
	return n, nil
}

// fromIndex reads h from the commit-graph; nil when it is not there.
func (g *graph) fromIndex(h plumbing.Hash) (*node, error) {
	if g.index == nil {
		return nil, nil
	}
	i, err := g.index.GetIndexByHash(h)
	if err != nil {
		return nil, nil
	}
	data, err := g.index.GetCommitDataByIndex(i)
	if err != nil {
		return nil, fmt.Errorf("reading commit %s from the commit-graph: %w", h, err)
	}
	return &node{parents: data.ParentHashes, level: data.Generation}, nil
}

// level returns the topological level of h, computing it from its
// parents' where the commit-graph does not give it. Without a
// commit-graph that reads every ancestor of h once; with one, only the
// ancestors written after it. Parents beyond a shallow boundary do not
// count: the boundary commits are roots of the clone.
func (g *graph) level(h plumbing.Hash) (uint64, error) {
	stack := []plumbing.Hash{h}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		n, err := g.get(top)
		if err != nil {
			return 0, err
		}
		if n.level > 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		level, pending := uint64(1), false
		if !n.shallow {
			for _, p := range n.parents {
				pn, err := g.get(p)
				if err != nil {
					return 0, err
				}
				if pn.level == 0 {
					stack = append(stack, p)
					pending = true
				}
				level = max(level, pn.level+1)
			}
		}
		if !pending {
			n.level = level
			stack = stack[:len(stack)-1]
		}
	}
	return g.nodes[h].level, nil
}

// missingCommit explains a commit that is not in the repository.
func (r *Repo) missingCommit(h plumbing.Hash) error {
	if r.isShallow() {
		return fmt.Errorf("commit %s is missing: %w", h, ErrShallow)
	}
	return fmt.Errorf("commit %s is missing from the repository: %w", h, plumbing.ErrObjectNotFound)
}

// parents reads the parents of commit h from the commit itself, as git
// and decodeCommit read them.
func (r *Repo) parents(h plumbing.Hash) ([]plumbing.Hash, error) {
	if c, ok := r.commits[h]; ok {
		return c.ParentHashes, nil
	}
	kind, data, _, err := r.reader.Object(h, -1)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, r.missingCommit(h)
	}
	if err == nil && kind != plumbing.CommitObject {
		err = fmt.Errorf("a %s, not a commit", kind)
	}
	if err != nil {
		return nil, fmt.Errorf("reading commit %s: %w", h, err)
	}
	parents, err := gitread.CommitParents(data)
	if err != nil {
		return nil, fmt.Errorf("reading commit %s: %w", h, err)
	}
	return parents, nil
}
