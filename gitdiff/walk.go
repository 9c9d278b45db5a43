package gitdiff

import (
	"container/heap"
	"errors"
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

// between returns the commits reachable from head and not from base,
// parents before children. Like git, it walks both sides newest first and
// stops as soon as every commit left to visit is reachable from base, so
// the cost follows the size of the range, not the length of history.
func (r *Repo) between(base, head plumbing.Hash) ([]*object.Commit, error) {
	w := &walker{repo: r, flags: map[plumbing.Hash]int{}, commits: map[plumbing.Hash]*object.Commit{}}
	if err := w.push(base, uninteresting); err != nil {
		return nil, err
	}
	if err := w.push(head, fromHead); err != nil {
		return nil, err
	}
	for w.queue.Len() > 0 && w.interestingLeft() {
		c := heap.Pop(&w.queue).(*object.Commit)
		flags := w.flags[c.Hash]
		for _, p := range c.ParentHashes {
			if err := w.push(p, flags); err != nil {
				return nil, err
			}
		}
	}
	var out []*object.Commit
	for h, f := range w.flags {
		if f == fromHead {
			out = append(out, w.commits[h])
		}
	}
	return topoOrder(out), nil
}

type walker struct {
	repo    *Repo
	flags   map[plumbing.Hash]int
	commits map[plumbing.Hash]*object.Commit
	queue   commitQueue
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
		if flags&uninteresting != 0 {
			w.spreadUninteresting(h)
		}
		return nil
	}
	c, err := w.repo.repo.CommitObject(h)
	if err != nil {
		if errors.Is(err, plumbing.ErrObjectNotFound) {
			return fmt.Errorf("commit %s is not in this clone: %w", h, ErrShallow)
		}
		return fmt.Errorf("reading commit %s: %w", h, err)
	}
	w.flags[h] = flags
	w.commits[h] = c
	heap.Push(&w.queue, c)
	return nil
}

func (w *walker) spreadUninteresting(h plumbing.Hash) {
	stack := []plumbing.Hash{h}
	for len(stack) > 0 {
		c := w.commits[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		for _, p := range c.ParentHashes {
			if f, seen := w.flags[p]; seen && f&uninteresting == 0 {
				w.flags[p] = f | uninteresting
				stack = append(stack, p)
			}
		}
	}
}

// interestingLeft reports whether a queued commit may still be in the range.
func (w *walker) interestingLeft() bool {
	for _, c := range w.queue {
		if w.flags[c.Hash]&uninteresting == 0 {
			return true
		}
	}
	return false
}

// commitQueue is a max-heap of commits by committer time.
type commitQueue []*object.Commit

func (q commitQueue) Len() int { return len(q) }
func (q commitQueue) Less(i, j int) bool {
	return q[i].Committer.When.After(q[j].Committer.When)
}
func (q commitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *commitQueue) Push(x any)   { *q = append(*q, x.(*object.Commit)) }
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
