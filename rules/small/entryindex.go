package small

import (
	"math"
	"slices"
	"time"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// entryIndex finds, for an old entry, the earliest entry of the new
// version at or after a position that history.same takes for it: the new
// entries by their value with the timestamp left out (a structural hash,
// see yamldoc.Comparer.SumExcept) and, among those, by their timestamp as
// a value, as written, as a string (what migrate writes) and as an
// instant. A look-up costs about the logarithm of the list, so that
// aligning n entries with n costs n log n comparisons, not n × n.
type entryIndex struct {
	cmp *yamldoc.Comparer
	// byValue holds the positions by the entry's and its timestamp's
	// sums (noTimestamp for an entry without one); byText by the
	// timestamp as written, a string or an unquoted timestamp; byString
	// by a string timestamp; instants by the instant a string timestamp
	// parses to.
	byValue  map[valueKey]*positions
	byText   map[textKey]*positions
	byString map[textKey]*positions
	instants map[uint64]*instantIndex
}

// noTimestamp stands for the timestamp of an entry that has none.
const noTimestamp = 0x243f6a8885a308d3

// valueKey and textKey name a timestamp of an entry whose other values
// have the sum entry.
type valueKey struct{ entry, timestamp uint64 }
type textKey struct {
	entry     uint64
	timestamp string
}

// positions are positions of the new version, in order; at is, for an
// instant (see instantIndex), the first not passed yet.
type positions struct {
	list []int
	at   int
}

// from returns the first of the positions at or after next (-1: none).
func (p *positions) from(next int) int {
	if p == nil {
		return -1
	}
	k, _ := slices.BinarySearch(p.list, next)
	if k == len(p.list) {
		return -1
	}
	return p.list[k]
}

// pass returns the first position not passed yet at or after next (-1:
// none), and passes those before it for good: next never decreases from
// one call to the next.
func (p *positions) pass(next int) int {
	for p.at < len(p.list) && p.list[p.at] < next {
		p.at++
	}
	if p.at == len(p.list) {
		return -1
	}
	return p.list[p.at]
}

// newEntryIndex indexes the entries of cur.
func newEntryIndex(cmp *yamldoc.Comparer, cur []any) *entryIndex {
	x := &entryIndex{cmp: cmp, byValue: map[valueKey]*positions{}, byText: map[textKey]*positions{},
		byString: map[textKey]*positions{}, instants: map[uint64]*instantIndex{}}
	at := func(m map[textKey]*positions, k textKey, j int) {
		if m[k] == nil {
			m[k] = &positions{}
		}
		m[k].list = append(m[k].list, j)
	}
	for j, e := range cur {
		entry := cmp.SumExcept(e, "timestamp")
		ts, has := timestampOf(e)
		k := valueKey{entry, noTimestamp}
		if has {
			k.timestamp = cmp.Sum(ts)
		}
		if x.byValue[k] == nil {
			x.byValue[k] = &positions{}
		}
		x.byValue[k].list = append(x.byValue[k].list, j)
		if !has {
			continue
		}
		if text, ok := timestampText(ts); ok {
			at(x.byText, textKey{entry, text}, j)
		}
		if s, ok := ts.(string); ok {
			at(x.byString, textKey{entry, s}, j)
			if u, err := parseTime(s); err == nil {
				if x.instants[entry] == nil {
					x.instants[entry] = &instantIndex{}
				}
				x.instants[entry].add(u, j)
			}
		}
	}
	for _, in := range x.instants {
		in.build()
	}
	return x
}

// timestampOf returns the timestamp of an entry that is a mapping with
// one.
func timestampOf(e any) (any, bool) {
	m, ok := e.(map[string]any)
	if !ok {
		return nil, false
	}
	ts, has := m["timestamp"]
	return ts, has
}

// candidate returns the earliest position at or after next of an entry
// that old entry i of h may be the same as, or -1: every position that h.same
// accepts for it is among those the index offers, the earliest first.
func (x *entryIndex) candidate(h *history, i, next int) int {
	o := h.old[i]
	entry := x.cmp.SumExcept(o, "timestamp")
	ts, has := timestampOf(o)
	if !has {
		return x.byValue[valueKey{entry, noTimestamp}].from(next)
	}
	best := x.byValue[valueKey{entry, x.cmp.Sum(ts)}].from(next)
	earlier := func(j int) {
		if j >= 0 && (best < 0 || j < best) {
			best = j
		}
	}
	if text, ok := timestampText(ts); ok {
		earlier(x.byText[textKey{entry, text}].from(next))
	}
	if h.migrated != nil {
		earlier(x.byString[textKey{entry, h.migrated[i]}].from(next))
	}
	if s, ok := ts.(string); ok {
		if t, err := parseTime(s); err == nil && x.instants[entry] != nil {
			earlier(x.instants[entry].first(t, t.Add(time.Duration(h.ties[t])*time.Nanosecond), next))
		}
	}
	return best
}

// instantIndex holds positions by the instant of their timestamps, and
// finds the earliest position at or after a point whose instant lies in
// a range: a tree over the instants, in order, keeps the earliest
// position not passed yet of each.
type instantIndex struct {
	instants []time.Time
	at       []positions
	// tree[k] is the least of the earliest positions under node k
	// (leaves from len(tree)/2), none for none.
	tree []int
}

// add puts position j, whose timestamp is at u, in the index (before
// build).
func (x *instantIndex) add(u time.Time, j int) {
	x.instants = append(x.instants, u)
	x.at = append(x.at, positions{list: []int{j}})
}

// build sorts what add put in, one entry per instant, and builds the
// tree.
func (x *instantIndex) build() {
	order := make([]int, len(x.instants))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return x.instants[a].Compare(x.instants[b]) })
	var instants []time.Time
	var at []positions
	for _, k := range order {
		if n := len(instants); n > 0 && instants[n-1].Equal(x.instants[k]) {
			at[n-1].list = append(at[n-1].list, x.at[k].list...)
			continue
		}
		instants, at = append(instants, x.instants[k]), append(at, x.at[k])
	}
	for k := range at {
		slices.Sort(at[k].list)
	}
	x.instants, x.at = instants, at
	size := 1
	for size < len(at) {
		size *= 2
	}
	x.tree = make([]int, 2*size)
	for k := range x.tree {
		x.tree[k] = none
	}
	for k := range at {
		x.set(k, at[k].list[0])
	}
}

// none is the tree's value for no position: later than any.
const none = math.MaxInt

// set makes p the earliest position of instant k, and updates the tree.
func (x *instantIndex) set(k, p int) {
	n := len(x.tree)/2 + k
	x.tree[n] = p
	for n /= 2; n >= 1; n /= 2 {
		x.tree[n] = min(x.tree[2*n], x.tree[2*n+1])
	}
}

// first returns the earliest position at or after next whose instant lies
// in lo..hi, or -1. A position passed (before next) is found at most once
// more, and then dropped for good.
func (x *instantIndex) first(lo, hi time.Time, next int) int {
	from, _ := slices.BinarySearchFunc(x.instants, lo, time.Time.Compare)
	to, found := slices.BinarySearchFunc(x.instants, hi, time.Time.Compare)
	if found {
		to++
	}
	for from < to {
		p, k := x.least(from, to)
		switch {
		case p == none:
			return -1
		case p >= next:
			return p
		}
		q := x.at[k].pass(next)
		if q < 0 {
			q = none
		}
		x.set(k, q)
	}
	return -1
}

// least returns the least earliest position of the instants from..to-1,
// and which instant holds it.
func (x *instantIndex) least(from, to int) (p, k int) {
	p, k = none, -1
	half := len(x.tree) / 2
	var walk func(n, lo, hi int)
	walk = func(n, lo, hi int) {
		if hi <= from || to <= lo || x.tree[n] >= p {
			return
		}
		if hi-lo == 1 {
			p, k = x.tree[n], lo
			return
		}
		mid := (lo + hi) / 2
		walk(2*n, lo, mid)
		walk(2*n+1, mid, hi)
	}
	walk(1, 0, half)
	return p, k
}
