package ledger

import (
	"slices"
	"sort"
	"strings"

	"github.com/small-hook/small-hook/internal/persistent"
)

// commitIndex answers what the evidence checks ask of the history: which
// commit some hex digits name, and whether one commit is an ancestor of
// another.
//
// Ancestry is answered from one walk of the history, parents first, that
// cuts it into chains of first parents: a commit continues the chain of
// its first parent unless a sibling walked before it already did, and
// starts a chain of its own otherwise. What a commit reaches is then, for
// each chain, the latest place on it that is the commit or one of its
// ancestors: every place before it on the chain is an ancestor too. A
// commit reaches what its first parent does and its own place, and a
// merge what any parent does (the places its parents reach differently
// are the only ones looked at); each commit's table shares with its first
// parent's what did not change (persistent.Map), so that the walk costs
// the history and its merges, and each question a look-up.
type commitIndex struct {
	// sorted holds the walked commits by id, for prefix look-ups.
	sorted []*node
	// chain and place are each commit's chain and place on it, and
	// reaches what it reaches, by the commit's index in the walk; built
	// on the first question.
	order   []*node
	chain   []int
	place   []int
	reaches []persistent.Map[int, int]
}

func newCommitIndex(order []*node) *commitIndex {
	sorted := slices.Clone(order)
	slices.SortFunc(sorted, func(a, b *node) int { return strings.Compare(a.Hash, b.Hash) })
	return &commitIndex{sorted: sorted, order: order}
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

// ancestor reports whether a is a proper ancestor of d.
func (x *commitIndex) ancestor(a, d *node) bool {
	if a.level >= d.level {
		return false
	}
	if x.reaches == nil {
		x.walk()
	}
	at, ok := x.reaches[d.index].Get(x.chain[a.index])
	return ok && x.place[a.index] <= at
}

// walk cuts the history into chains and works out what each commit
// reaches (see commitIndex).
func (x *commitIndex) walk() {
	n := len(x.order)
	x.chain, x.place, x.reaches = make([]int, n), make([]int, n), make([]persistent.Map[int, int], n)
	continued := make([]bool, n)
	empty := persistent.New[int, int]()
	chains := 0
	for _, c := range x.order {
		i := c.index
		reach := empty
		if len(c.parents) == 0 || continued[c.parents[0].index] {
			x.chain[i] = chains
			chains++
		} else {
			first := c.parents[0].index
			continued[first] = true
			x.chain[i], x.place[i] = x.chain[first], x.place[first]+1
		}
		for k, p := range c.parents {
			other := x.reaches[p.index]
			if k == 0 {
				reach = other
				continue
			}
			persistent.Diff(reach, other, func(chain int) {
				if at, ok := other.Get(chain); ok {
					if mine, has := reach.Get(chain); !has || at > mine {
						reach = reach.With(chain, at)
					}
				}
			})
		}
		x.reaches[i] = reach.With(x.chain[i], x.place[i])
	}
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
