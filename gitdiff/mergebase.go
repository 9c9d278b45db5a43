package gitdiff

import (
	"container/heap"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// Flags of the merge-base walk, as git's paint_down_to_common sets them.
const (
	fromFirst  = 1 << iota // reachable from the first commit
	fromSecond             // reachable from the second
	staleMark              // below a common ancestor already found
	foundMark              // a common ancestor, recorded
)

// mergeBases returns the best common ancestors of a and b, as `git
// merge-base --all a b` names them: the commits reachable from both that no
// other such commit reaches. They are ordered newest first by committer
// date (then by id), as go-git ordered them. The walk reads parents and
// topological levels from the graph (see graph), so a merge base costs the
// commits between the two and their base, never a decoding of whole
// commits.
func (r *Repo) mergeBases(a, b plumbing.Hash) ([]plumbing.Hash, error) {
	if a == b {
		return []plumbing.Hash{a}, nil
	}
	g, err := r.newGraph()
	if err != nil {
		return nil, err
	}
	defer g.Close()
	candidates, err := g.paintDownToCommon(a, b)
	if err != nil {
		return nil, err
	}
	var bases []plumbing.Hash
	for _, c := range candidates {
		redundant := false
		for _, other := range candidates {
			if other == c {
				continue
			}
			if redundant, err = g.reaches(other, c); err != nil {
				return nil, err
			}
			if redundant {
				break
			}
		}
		if !redundant {
			bases = append(bases, c)
		}
	}
	when := map[plumbing.Hash]int64{}
	for _, h := range bases {
		c, err := r.commit(h)
		if err != nil {
			return nil, err
		}
		when[h] = c.Committer.When.Unix()
	}
	sort.Slice(bases, func(i, j int) bool {
		if when[bases[i]] != when[bases[j]] {
			return when[bases[i]] > when[bases[j]]
		}
		return bases[i].String() < bases[j].String()
	})
	return bases, nil
}

// paintDownToCommon walks down from a and b, highest level first, marking
// what each reaches; a commit both reach is a candidate, and what lies
// below it is stale. It stops when only stale commits are left to visit.
func (g *graph) paintDownToCommon(a, b plumbing.Hash) ([]plumbing.Hash, error) {
	flags := map[plumbing.Hash]int{}
	var queue commitQueue
	push := func(h plumbing.Hash, f int) error {
		level, err := g.level(h)
		if err != nil {
			return err
		}
		flags[h] |= f
		heap.Push(&queue, queued{hash: h, level: level})
		return nil
	}
	if err := push(a, fromFirst); err != nil {
		return nil, err
	}
	if err := push(b, fromSecond); err != nil {
		return nil, err
	}
	var out []plumbing.Hash
	for hasFresh(queue, flags) {
		h := heap.Pop(&queue).(queued).hash
		f := flags[h] & (fromFirst | fromSecond | staleMark)
		if f&(fromFirst|fromSecond) == fromFirst|fromSecond {
			if flags[h]&foundMark == 0 {
				flags[h] |= foundMark
				out = append(out, h)
			}
			f |= staleMark
		}
		n := g.nodes[h]
		if n.shallow {
			continue
		}
		for _, p := range n.parents {
			if flags[p]&f == f {
				continue
			}
			if err := push(p, f); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// hasFresh reports whether a commit left in the queue is not stale.
func hasFresh(queue commitQueue, flags map[plumbing.Hash]int) bool {
	for _, q := range queue {
		if flags[q.hash]&staleMark == 0 {
			return true
		}
	}
	return false
}

// reaches reports whether commit to is reachable from commit from. Only
// commits above to's level can lead to it, so the search stops there.
func (g *graph) reaches(from, to plumbing.Hash) (bool, error) {
	target, err := g.level(to)
	if err != nil {
		return false, err
	}
	seen := map[plumbing.Hash]bool{from: true}
	stack := []plumbing.Hash{from}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if h == to {
			return true, nil
		}
		level, err := g.level(h)
		if err != nil {
			return false, err
		}
		n := g.nodes[h]
		if level <= target || n.shallow {
			continue
		}
		for _, p := range n.parents {
			if !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	return false, nil
}
