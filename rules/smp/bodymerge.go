package smp

import (
	"slices"
	"strings"
)

// maxEdits bounds the line edits between two bodies that the merge check
// aligns; bodies further apart are never taken for a plain merge.
const maxEdits = 1000

// maxShuffle bounds the work of checking that conflicting regions keep
// both sides' lines (the products of the two sides' lengths, summed over
// the regions and the positions tried); beyond it only the two
// concatenations of the sides count.
const maxShuffle = 1 << 22

// plainMerge reports whether result is what merging the bodies ours and
// theirs over their merge base yields without new content. The bodies are
// aligned line by line with the base (a three-way merge): a region that
// one side changed takes that side's lines; a region both sides changed
// differently (a conflict) takes one side's lines, or every line of both
// sides with each side's order kept (the union a merge driver or a person
// resolving the conflict writes). Line endings are normalised first.
func plainMerge(base, ours, theirs, result string) bool {
	var t interner
	o, a, b, r := t.lines(base), t.lines(ours), t.lines(theirs), t.lines(result)
	regions, ok := merge3(o, a, b)
	return ok && fits(regions, r)
}

// interner numbers distinct lines, so that lines compare as integers.
type interner struct{ ids map[string]int }

func (t *interner) lines(s string) []int {
	if t.ids == nil {
		t.ids = map[string]int{}
	}
	var out []int
	for _, l := range strings.SplitAfter(normalise(s), "\n") {
		if l == "" {
			continue
		}
		id, ok := t.ids[l]
		if !ok {
			id = len(t.ids)
			t.ids[l] = id
		}
		out = append(out, id)
	}
	return out
}

// region is one stretch of a three-way merge: lines the result must hold
// (ours), or, when conflict is set, a region both sides changed
// differently.
type region struct {
	ours, theirs []int
	conflict     bool
}

// merge3 splits a three-way merge into regions: lines all three versions
// share, and between them what each side made of the base's lines. ok is
// false when a side is too far from the base to align.
func merge3(o, a, b []int) ([]region, bool) {
	ma, okA := align(o, a)
	mb, okB := align(o, b)
	if !okA || !okB {
		return nil, false
	}
	var out []region
	// settled appends lines the result must hold, to the region before
	// when that one is settled too.
	settled := func(lines []int) {
		if n := len(out); n > 0 && !out[n-1].conflict {
			out[n-1].ours = append(out[n-1].ours, lines...)
			return
		}
		out = append(out, region{ours: slices.Clone(lines)})
	}
	pi, pa, pb := -1, -1, -1 // the last line all three share
	between := func(qi, qa, qb int) {
		base, ours, theirs := o[pi+1:qi], a[pa+1:qa], b[pb+1:qb]
		switch {
		case slices.Equal(ours, base):
			settled(theirs)
		case slices.Equal(theirs, base), slices.Equal(ours, theirs):
			settled(ours)
		default:
			out = append(out, region{ours: ours, theirs: theirs, conflict: true})
		}
	}
	for i := range o {
		if ma[i] < 0 || mb[i] < 0 {
			continue
		}
		between(i, ma[i], mb[i])
		settled(o[i : i+1])
		pi, pa, pb = i, ma[i], mb[i]
	}
	between(len(o), len(a), len(b))
	return out, true
}

// fits reports whether r is one way through the regions: the set of
// positions of r that the regions so far can end at is carried along.
func fits(regions []region, r []int) bool {
	at := []int{0}
	budget := maxShuffle
	for _, g := range regions {
		var next []int
		seen := map[int]bool{}
		add := func(p int) {
			if !seen[p] {
				seen[p] = true
				next = append(next, p)
			}
		}
		for _, p := range at {
			if hasAt(r, p, g.ours) {
				add(p + len(g.ours))
			}
			if !g.conflict {
				continue
			}
			if hasAt(r, p, g.theirs) {
				add(p + len(g.theirs))
			}
			n := len(g.ours) + len(g.theirs)
			if p+n > len(r) {
				continue
			}
			cost := (len(g.ours) + 1) * (len(g.theirs) + 1)
			ok := slices.Equal(r[p:p+n], slices.Concat(g.ours, g.theirs)) || slices.Equal(r[p:p+n], slices.Concat(g.theirs, g.ours))
			if !ok && cost <= budget {
				budget -= cost
				ok = interleaves(g.ours, g.theirs, r[p:p+n])
			}
			if ok {
				add(p + n)
			}
		}
		if len(next) == 0 {
			return false
		}
		at = next
	}
	return slices.Contains(at, len(r))
}

func hasAt(r []int, p int, lines []int) bool {
	return p+len(lines) <= len(r) && slices.Equal(r[p:p+len(lines)], lines)
}

// interleaves reports whether s is x and y interleaved: every line of both,
// each in its own order.
func interleaves(x, y, s []int) bool {
	// can[j] says whether s[:i+j] interleaves x[:i] and y[:j], row by row.
	can := make([]bool, len(y)+1)
	for i := 0; i <= len(x); i++ {
		for j := 0; j <= len(y); j++ {
			switch {
			case i == 0 && j == 0:
				can[j] = true
			default:
				fromX := i > 0 && can[j] && x[i-1] == s[i+j-1]
				fromY := j > 0 && can[j-1] && y[j-1] == s[i+j-1]
				can[j] = fromX || fromY
			}
		}
	}
	return can[len(y)]
}

// align matches the lines of o with lines of x along a longest common
// subsequence: m[i] is the index in x of o's line i, or -1. ok is false
// when the two differ by more than maxEdits lines.
func align(o, x []int) (m []int, ok bool) {
	m = make([]int, len(o))
	for i := range m {
		m[i] = -1
	}
	p := 0
	for p < len(o) && p < len(x) && o[p] == x[p] {
		m[p] = p
		p++
	}
	s := 0
	for s < len(o)-p && s < len(x)-p && o[len(o)-1-s] == x[len(x)-1-s] {
		m[len(o)-1-s] = len(x) - 1 - s
		s++
	}
	pairs, ok := commonLines(o[p:len(o)-s], x[p:len(x)-s])
	for _, pr := range pairs {
		m[p+pr[0]] = p + pr[1]
	}
	return m, ok
}

// commonLines returns the index pairs of a longest common subsequence of
// a and b (Myers' O(ND) algorithm), or false beyond maxEdits edits.
func commonLines(a, b []int) ([][2]int, bool) {
	n, m := len(a), len(b)
	if n == 0 || m == 0 {
		return nil, true
	}
	limit := min(n+m, maxEdits)
	off := limit + 1
	v := make([]int, 2*off+1)
	// trace[d] holds v[-d..d] after round d.
	var trace [][]int
	for d := 0; d <= limit; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				trace = append(trace, slices.Clone(v[off-d:off+d+1]))
				return backtrack(trace, a, b), true
			}
		}
		trace = append(trace, slices.Clone(v[off-d:off+d+1]))
	}
	return nil, false
}

// backtrack walks Myers' trace back from the end and returns the matched
// index pairs in order.
func backtrack(trace [][]int, a, b []int) [][2]int {
	var pairs [][2]int
	x, y := len(a), len(b)
	for d := len(trace) - 1; d > 0; d-- {
		prev := trace[d-1] // v[-(d-1)..d-1]
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || k != d && at(k-1) < at(k+1) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		mx := px // where the snake into (x, y) starts
		if pk == k-1 {
			mx = px + 1
		}
		for x > mx && y > mx-k {
			x--
			y--
			pairs = append(pairs, [2]int{x, y})
		}
		x, y = px, px-pk
	}
	for x > 0 && y > 0 {
		x--
		y--
		pairs = append(pairs, [2]int{x, y})
	}
	slices.Reverse(pairs)
	return pairs
}
