package gitdiff

import (
	"container/heap"
	"fmt"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Walk flags, as git paints commits when it computes base..head.
const (
	fromHead      = 1 << iota // reachable from head
	uninteresting             // reachable from base
)

// between returns the commits reachable from head and not from any of
// bases, parents before children: the commits `git rev-list head ^base...`
// names, whatever the commit dates say. Without bases it returns every
// commit reachable from head, the root included.
//
// The walk goes down from both ends, highest topological level first, and
// stops when every commit left to visit is reachable from base: a commit's
// level is above its parents', so by then nothing left can lead back into
// the range. With a commit-graph (git gc and `git commit-graph write` make
// one) the levels are read from it and the cost follows the size of the
// range. Without one they are computed, which reads every ancestor of base
// and head once. Committer dates are never trusted: git's own walk orders
// by date and can take commits of base into the range when clocks were
// skewed.
func (r *Repo) between(bases []plumbing.Hash, head plumbing.Hash) ([]*object.Commit, error) {
	g, err := r.newGraph()
	if err != nil {
		return nil, err
	}
	defer g.Close()
	var hashes []plumbing.Hash
	if len(bases) == 0 {
		hashes, err = g.reachable(head, false)
	} else {
		hashes, err = g.walk(bases, head)
	}
	if err != nil {
		return nil, err
	}
	commits := make([]*object.Commit, 0, len(hashes))
	for _, h := range hashes {
		c, err := r.commit(h)
		if err != nil {
			return nil, err
		}
		commits = append(commits, c)
	}
	return topoOrder(commits), nil
}

// contains reports whether commit c is reachable from tip (c == tip
// included).
func (r *Repo) contains(tip, c plumbing.Hash) (bool, error) {
	if tip == c {
		return true, nil
	}
	outside, err := r.between([]plumbing.Hash{tip}, c)
	return len(outside) == 0, err
}

// reachable lists every commit reachable from head. The whole history
// must be in the clone, unless toBoundary: then a shallow clone's boundary
// commits are listed and the walk goes no further down from them.
func (g *graph) reachable(head plumbing.Hash, toBoundary bool) ([]plumbing.Hash, error) {
	seen := map[plumbing.Hash]bool{head: true}
	stack := []plumbing.Hash{head}
	var out []plumbing.Hash
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n, err := g.get(h)
		if err != nil {
			return nil, err
		}
		if n.shallow && !toBoundary {
			return nil, fmt.Errorf("the parents of commit %s are missing: %w", h, ErrShallow)
		}
		out = append(out, h)
		if n.shallow {
			continue
		}
		for _, p := range n.parents {
			if !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	return out, nil
}

// walker paints commits from base (uninteresting) and head (fromHead).
type walker struct {
	g     *graph
	flags map[plumbing.Hash]int
	queue commitQueue
	// queued marks the commits in queue; interesting counts those not
	// reachable from base.
	queued      map[plumbing.Hash]bool
	interesting int
}

// walk returns the commits reachable from head and not from any of bases.
func (g *graph) walk(bases []plumbing.Hash, head plumbing.Hash) ([]plumbing.Hash, error) {
	w := &walker{g: g, flags: map[plumbing.Hash]int{}, queued: map[plumbing.Hash]bool{}}
	for _, base := range bases {
		if err := w.push(base, uninteresting); err != nil {
			return nil, err
		}
	}
	if err := w.push(head, fromHead); err != nil {
		return nil, err
	}
	for w.queue.Len() > 0 && w.interesting > 0 {
		item := heap.Pop(&w.queue).(queued)
		w.queued[item.hash] = false
		flags := w.flags[item.hash]
		if flags&uninteresting == 0 {
			w.interesting--
		}
		if err := w.expand(item.hash, flags); err != nil {
			return nil, err
		}
	}
	var out []plumbing.Hash
	for h, f := range w.flags {
		if f == fromHead {
			out = append(out, h)
		}
	}
	return out, nil
}

// expand queues the parents of a visited commit with its flags.
func (w *walker) expand(h plumbing.Hash, flags int) error {
	n := w.g.nodes[h]
	if n.shallow {
		if flags&uninteresting != 0 {
			return nil // below base: what is beyond the clone does not matter
		}
		return fmt.Errorf("the range goes past commit %s, whose parents are missing: %w", h, ErrShallow)
	}
	for _, p := range n.parents {
		if err := w.push(p, flags); err != nil {
			return err
		}
	}
	return nil
}

// push marks h with flags and queues it when it is new; an uninteresting
// mark reaching a commit already seen spreads to what was seen below it.
func (w *walker) push(h plumbing.Hash, flags int) error {
	old, seen := w.flags[h]
	if seen {
		if old|flags == old {
			return nil
		}
		w.flags[h] = old | flags
		if flags&uninteresting != 0 && old&uninteresting == 0 {
			w.markUninteresting(h)
		}
		return nil
	}
	level, err := w.g.level(h)
	if err != nil {
		return err
	}
	w.flags[h] = flags
	w.queued[h] = true
	heap.Push(&w.queue, queued{hash: h, level: level})
	if flags&uninteresting == 0 {
		w.interesting++
	}
	return nil
}

// markUninteresting accounts for h becoming reachable from base and
// spreads the mark to the commits already seen below it.
func (w *walker) markUninteresting(h plumbing.Hash) {
	stack := []plumbing.Hash{h}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if w.queued[c] {
			w.interesting--
		}
		n := w.g.nodes[c]
		if n.shallow {
			continue
		}
		for _, p := range n.parents {
			if f, seen := w.flags[p]; seen && f&uninteresting == 0 {
				w.flags[p] = f | uninteresting
				stack = append(stack, p)
			}
		}
	}
}

// queued is one commit waiting in a walk, with its topological level.
type queued struct {
	hash  plumbing.Hash
	level uint64
}

// commitQueue is a max-heap of commits by level; equal levels go by object
// id so that walks are deterministic.
type commitQueue []queued

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	if q[i].level != q[j].level {
		return q[i].level > q[j].level
	}
	return q[i].hash.String() < q[j].hash.String()
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(queued)) }
func (q *commitQueue) Pop() any {
	old := *q
	c := old[len(old)-1]
	*q = old[:len(old)-1]
	return c
}

// topoOrder sorts commits so that parents come before children, older
// commits first among those that are free to go.
func topoOrder(commits []*object.Commit) []*object.Commit {
	in := map[plumbing.Hash]bool{}
	for _, c := range commits {
		in[c.Hash] = true
	}
	children := map[plumbing.Hash][]*object.Commit{}
	pending := map[plumbing.Hash]int{}
	var ready []*object.Commit
	for _, c := range commits {
		for _, p := range c.ParentHashes {
			if in[p] {
				pending[c.Hash]++
				children[p] = append(children[p], c)
			}
		}
		if pending[c.Hash] == 0 {
			ready = append(ready, c)
		}
	}
	var out []*object.Commit
	for len(ready) > 0 {
		sort.Slice(ready, func(i, j int) bool {
			a, b := ready[i].Committer.When, ready[j].Committer.When
			if !a.Equal(b) {
				return a.Before(b)
			}
			return ready[i].Hash.String() < ready[j].Hash.String()
		})
		c := ready[0]
		ready = ready[1:]
		out = append(out, c)
		for _, child := range children[c.Hash] {
			if pending[child.Hash]--; pending[child.Hash] == 0 {
				ready = append(ready, child)
			}
		}
	}
	return out
}
