package secrets

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
)

// plan is what find scans of a text.
type plan struct {
	// selected are the lines to scan with every rule (0-based, sorted).
	selected []int
	// hits are the offsets of keywords (sorted): only the windows of a
	// long line that hold one are scanned; every window is when keywords
	// is false. found are the same keywords, by offset.
	hits     []int
	found    map[int][]string
	keywords bool
	// blocks are the offsets of the opening keywords of block secrets
	// (sorted).
	blocks []int
	// segments are the byte ranges of encoded text that gitleaks' decoder
	// turns into a keyword (sorted, see walkDecoded): each is scanned
	// whole.
	segments [][2]int
}

// record notes keyword at offset start.
func (p *plan) record(start int, keyword string) {
	if len(p.found[start]) == 0 {
		p.hits = append(p.hits, start)
	}
	p.found[start] = append(p.found[start], keyword)
}

// sort orders what the walks recorded.
func (p *plan) sort() {
	slices.Sort(p.hits)
	slices.Sort(p.blocks)
	p.blocks = slices.Compact(p.blocks)
	slices.SortFunc(p.segments, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	p.segments = slices.Compact(p.segments)
}

// nearLines is how far from a judged line the keywords can matter: a
// judged line is selected with its neighbours, and the windows of a
// selected long line reach one line further (see windows).
const nearLines = 2

// plan decides what to scan of t. A judged line is scanned when it or a
// neighbour holds a keyword of some rule (a key and its value may be on
// consecutive lines); gitleaks runs a rule only where its keyword occurs,
// so other lines cannot produce a finding. A configuration with a content
// rule without keywords has every judged line scanned, and every window of
// a long one.
//
// Keywords are looked for with one Aho-Corasick pass over the text when
// every line is judged; otherwise only near the judged lines (planNear),
// which finds the same plan for the lines a scan can reach, and
// FuzzPlanNear holds it to that.
func (s *Scanner) plan(t *text, j judged) plan {
	if j.all || s.keywordSpansLines {
		return s.planWhole(t, j)
	}
	return s.planNear(t, j)
}

// planWhole is plan with every keyword of the text looked for.
func (s *Scanner) planWhole(t *text, j judged) plan {
	p := plan{keywords: !s.keywordless, found: map[int][]string{}}
	hit := make([]bool, t.lines())
	s.walkKeywords(t, asciiLower(t.data), 0, &p, hit)
	s.walkDecoded(t, 0, t.lines()-1, -1, &p, hit)
	p.blocks = append(p.blocks, s.blockOpenings(t.data, [][2]int{{0, len(t.data)}})...)
	p.sort()
	p.choose(t, j, hit, s.keywordless)
	return p
}

// planNear is plan with keywords looked for only on the lines within
// nearLines of a judged one, and the opening keywords of block secrets
// only where a block that starts there reaches a judged line (see
// blockRegions). Keywords hold no line break (see keywordSpansLines), so
// none is cut at the edge of a span of whole lines.
func (s *Scanner) planNear(t *text, j judged) plan {
	p := plan{keywords: !s.keywordless, found: map[int][]string{}}
	hit := make([]bool, t.lines())
	judgedLines := j.indexes(t.lines())
	decoded := -1
	for _, span := range mergeSpans(judgedLines, func(i int) (int, int) {
		return t.starts[max(i-nearLines, 0)], t.end(min(i+nearLines, t.lines()-1))
	}) {
		s.walkKeywords(t, asciiLower(t.data[span[0]:span[1]]), span[0], &p, hit)
		decoded = s.walkDecoded(t, t.index(span[0]), t.index(span[1]-1), decoded, &p, hit)
	}
	p.blocks = append(p.blocks, s.blockOpenings(t.data, mergeSpans(judgedLines, func(i int) (int, int) {
		return max(t.starts[i]-2*maxBlock, 0), t.end(i)
	}))...)
	p.sort()
	p.choose(t, j, hit, s.keywordless)
	return p
}

// blockOpenings returns the offsets, sorted, where the opening keyword of
// a block secret starts within one of the spans of data.
func (s *Scanner) blockOpenings(data []byte, spans [][2]int) []int {
	var out []int
	for _, span := range spans {
		for k := range s.blockKeywords {
			out = append(out, occurrences(data, k, span[0], span[1])...)
		}
	}
	slices.Sort(out)
	return out
}

// walkKeywords records the keywords in lower, the lower-cased text of t
// from offset from on: their offsets in hits (unsorted) and found, and
// their lines in hit.
func (s *Scanner) walkKeywords(t *text, lower []byte, from int, p *plan, hit []bool) {
	s.trie.Walk(lower, func(end, size, _ int64) bool {
		at := int(end - size + 1)
		start := from + at
		hit[t.index(start)] = true
		p.record(start, string(lower[at:at+int(size)]))
		return true
	})
}

// choose chooses the lines to scan: each judged line whose own line or a
// neighbour holds a keyword (every judged line when a rule has none),
// with that neighbour, and every line of encoded text one of those lines
// holds part of.
func (p *plan) choose(t *text, j judged, hit []bool, keywordless bool) {
	want := make([]bool, t.lines())
	for i := range want {
		if !j.index(i) {
			continue
		}
		want[i] = want[i] || hit[i] || keywordless
		if hit[i] && i+1 < len(want) {
			want[i+1] = true
		}
		if i > 0 && hit[i-1] {
			want[i-1], want[i] = true, true
		}
	}
	for _, seg := range p.segments {
		// Encoded text is scanned whole (a U+0041 sequence runs across
		// lines) when a line of it is.
		lo, hi := t.index(seg[0]), t.index(seg[1]-1)
		if slices.Contains(want[lo:hi+1], true) {
			for i := lo; i <= hi; i++ {
				want[i] = true
			}
		}
	}
	for i, w := range want {
		if w {
			p.selected = append(p.selected, i)
		}
	}
	if len(p.selected) == 0 && j.all {
		// Path rules still see the file.
		p.selected = []int{0}
	}
}

// mergeSpans returns the byte spans that around gives for each of the
// lines (sorted), overlapping and touching ones merged, in order.
func mergeSpans(lines []int, around func(i int) (from, to int)) [][2]int {
	var out [][2]int
	for _, i := range lines {
		from, to := around(i)
		if n := len(out); n > 0 && from <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], to)
			continue
		}
		out = append(out, [2]int{from, to})
	}
	return out
}

// occurrences returns the offsets in from..to-1 where keyword (lower
// case) starts in data, ASCII letters of data compared in lower case as
// asciiLower makes them, overlapping occurrences included, as the
// Aho-Corasick pass finds them. Candidates are found by the first byte of
// keyword that case does not change, without lower-casing data.
func occurrences(data []byte, keyword string, from, to int) []int {
	if keyword == "" {
		return nil
	}
	anchor := strings.IndexFunc(keyword, func(r rune) bool { return r < 'a' || r > 'z' })
	var out []int
	if anchor < 0 {
		// Letters only: every start is a candidate.
		for at := from; at < to && at+len(keyword) <= len(data); at++ {
			if lowerEqual(data[at:at+len(keyword)], keyword) {
				out = append(out, at)
			}
		}
		return out
	}
	c := keyword[anchor]
	for at := from; at < to; {
		i := bytes.IndexByte(data[min(at+anchor, len(data)):min(to+anchor, len(data))], c)
		if i < 0 {
			break
		}
		if at += i; at+len(keyword) <= len(data) && lowerEqual(data[at:at+len(keyword)], keyword) {
			out = append(out, at)
		}
		at++
	}
	return out
}

// lowerEqual reports whether b, lower-cased as asciiLower does, is s.
func lowerEqual(b []byte, s string) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// asciiLower lower-cases ASCII letters only, so that offsets stay those of
// the original text (gitleaks' keywords are ASCII).
func asciiLower(data []byte) []byte {
	out := make([]byte, len(data))
	for i, c := range data {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
