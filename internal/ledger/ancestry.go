package ledger

import (
	"slices"
	"sort"
	"strings"
)

// commitIndex answers what the evidence checks ask of the history: which
// commit some hex digits name, and whether one commit is an ancestor of
// another.
type commitIndex struct {
	// sorted holds the walked commits by id, for prefix look-ups.
	sorted []*node
	// known remembers answers of ancestor, by descendant and ancestor.
	known map[[2]*node]bool
}

func newCommitIndex(order []*node) *commitIndex {
	sorted := slices.Clone(order)
	slices.SortFunc(sorted, func(a, b *node) int { return strings.Compare(a.Hash, b.Hash) })
	return &commitIndex{sorted: sorted, known: map[[2]*node]bool{}}
}

// lookup returns the walked commits whose id starts with ref (at most two:
// more than one is ambiguous).
func (x *commitIndex) lookup(ref string) []*node {
	ref = strings.ToLower(ref)
	i := sort.Search(len(x.sorted), func(i int) bool { return x.sorted[i].Hash >= ref })
	var out []*node
	for ; i < len(x.sorted) && strings.HasPrefix(x.sorted[i].Hash, ref) && len(out) < 2; i++ {
		out = append(out, x.sorted[i])
	}
	return out
}

// ancestor reports whether a is a proper ancestor of d. The search goes
// down d's parents and never below a's topological level, where a cannot
// be.
func (x *commitIndex) ancestor(a, d *node) bool {
	if a.level >= d.level {
		return false
	}
	key := [2]*node{d, a}
	if r, ok := x.known[key]; ok {
		return r
	}
	seen := map[*node]bool{d: true}
	stack := []*node{d}
	found := false
	for len(stack) > 0 && !found {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range n.parents {
			if p == a {
				found = true
				break
			}
			if !seen[p] && p.level > a.level {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	x.known[key] = found
	return found
}

// resolve finds the commits an entry's evidence names, and whether each
// is an ancestor of the commit that recorded the entry.
func (x *commitIndex) resolve(list []Evidence, recorder *node, origin Origin, shallow bool) []Evidence {
	for i := range list {
		e := &list[i]
		matches := x.lookup(e.Ref)
		switch {
		case origin == BeforeHistory:
			e.Status = Undecided
		case len(matches) > 1:
			e.Status = Ambiguous
		case len(matches) == 0 && shallow:
			e.Status = Undecided
		case len(matches) == 0:
			e.Status = Missing
		case x.ancestor(matches[0], recorder):
			e.Commit, e.Status = matches[0].Hash, Ancestor
		default:
			e.Commit, e.Status = matches[0].Hash, NotAncestor
		}
	}
	return list
}
