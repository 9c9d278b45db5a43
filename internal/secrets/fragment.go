package secrets

import (
	"slices"
	"strings"
)

// Sizes of what gitleaks is handed at once. gitleaks runs every allowlist
// of a rule over the whole line of every candidate match, so a line's
// cost grows with its length squared: one 126 kB line takes half a
// minute. Long lines are therefore cut into short overlapping windows,
// and many short lines go together into larger chunks, whose cost grows
// with the keywords they hold.
const (
	// chunkSize bounds a chunk of whole lines: one fragment of a 1 MB
	// progress file takes gitleaks seconds.
	chunkSize = 32 << 10
	// chunkOverlap is how many lines a chunk repeats of the one before,
	// so that a key and its value on the next lines are seen together.
	chunkOverlap = 4
	// maxLine is the longest line scanned whole; a longer one is scanned
	// in windows of this size.
	maxLine = 1 << 10
	// windowOverlap is how much consecutive windows of a line share: any
	// match up to this long lies whole in some window (gitleaks' longest
	// one-line patterns match about 250 bytes).
	windowOverlap = 256
	// maxBlock is the longest block secret (a PEM private key spanning
	// lines, or written on one line) that is always seen whole: blocks
	// are scanned apart, from each opening keyword, with only the rules
	// that match blocks.
	maxBlock = 32 << 10
)

// fragment is text handed to gitleaks at once: a piece of the scanned
// text, whose byte offset there is off, or several pieces joined by
// valueSeparator lines.
type fragment struct {
	text string
	off  int
	// joined are the pieces after the first, by where they start in text
	// and in the scanned text.
	joined []piece
}

// piece is where a piece of a joined fragment starts in the fragment
// (at) and in the scanned text (off).
type piece struct{ at, off int }

// offset maps an offset in the fragment's text to the scanned text.
func (fr fragment) offset(i int) int {
	k, _ := slices.BinarySearchFunc(fr.joined, i, func(p piece, i int) int { return p.at - i })
	if k < len(fr.joined) && fr.joined[k].at == i {
		k++
	}
	if k == 0 {
		return fr.off + i
	}
	p := fr.joined[k-1]
	return p.off + i - p.at
}

// crosses reports whether the text from offset start to offset end of the
// fragment runs into the line that separates two of its pieces.
func (fr fragment) crosses(start, end int) bool {
	k, _ := slices.BinarySearchFunc(fr.joined, start+1, func(p piece, i int) int { return p.at - i })
	return k < len(fr.joined) && fr.joined[k].at-len(joinSeparator) < end
}

// joinSeparator is the line that stands between the pieces of a joined
// fragment (each ends with a newline); see valueSeparator.
const joinSeparator = "\x00\n"

// joinFragments joins fragments that call for the same rules (sig) into
// fragments of at most chunkSize bytes, each piece after the first on the
// line after a valueSeparator line, which no rule's match can run across.
// gitleaks pays a fixed cost for every fragment — its global allowlist's
// path patterns alone take tens of microseconds — and the lines with
// keywords of a progress file, an entry or two apart, would otherwise be
// handed over a few lines at a time. Only fragments that call for the
// same rules go together: gitleaks runs a rule over a whole fragment when
// its keyword occurs anywhere in it, so joining others would make every
// rule read every piece.
func joinFragments(frags []fragment, sig func(fragment) string) []fragment {
	type joining struct {
		fragment
		text strings.Builder
	}
	var out []*joining
	open := map[string]*joining{}
	for _, fr := range frags {
		key := sig(fr)
		j := open[key]
		if j == nil || j.text.Len()+len(valueSeparator)+len(fr.text) > chunkSize {
			j = &joining{fragment: fragment{off: fr.off}}
			j.text.WriteString(fr.text)
			open[key] = j
			out = append(out, j)
			continue
		}
		j.text.WriteString(joinSeparator)
		j.joined = append(j.joined, piece{at: j.text.Len(), off: fr.off})
		j.text.WriteString(fr.text)
	}
	joined := make([]fragment, len(out))
	for i, j := range out {
		joined[i] = j.fragment
		joined[i].text = j.text.String()
	}
	return joined
}

// fragment returns the text from offset from to offset to. It ends with a
// newline, added when the text is cut inside a line: gitleaks places the
// end of a match that spans lines on the wrong line when the text's last
// line has none.
func (t *text) fragment(from, to int) fragment {
	if t.data[to-1] == '\n' {
		return fragment{text: string(t.data[from:to]), off: from}
	}
	return fragment{text: string(t.data[from:to]) + "\n", off: from}
}

// fragments cuts the selected lines into chunks of consecutive lines and
// windows of long lines. At least one fragment is kept, for path rules.
func fragments(t *text, p plan) []fragment {
	var out []fragment
	for k := 0; k < len(p.selected); k++ {
		lo := k
		for k+1 < len(p.selected) && p.selected[k+1] == p.selected[k]+1 {
			k++
		}
		out = append(out, run(t, p, p.selected[lo], p.selected[k])...)
	}
	if len(out) == 0 && len(p.selected) > 0 {
		i := p.selected[0]
		out = append(out, t.fragment(t.starts[i], min(t.starts[i]+maxLine, t.end(i))))
	}
	return out
}

// run cuts the consecutive lines lo..hi into chunks of at most chunkSize
// bytes, each repeating the last chunkOverlap lines of the one before, and
// windows of each line longer than maxLine.
func run(t *text, p plan, lo, hi int) []fragment {
	var out []fragment
	from := -1
	for i := lo; i <= hi; i++ {
		switch {
		case t.size(i) > maxLine:
			if from >= 0 {
				out = append(out, t.fragment(t.starts[from], t.starts[i]))
			}
			out = append(out, windows(t, p, i)...)
			out = append(out, segmentFragments(t, p, i)...)
			from = -1
		case from < 0:
			from = i
		case t.end(i)-t.starts[from] > chunkSize:
			out = append(out, t.fragment(t.starts[from], t.starts[i]))
			from = max(i-chunkOverlap, from+1)
		}
	}
	if from >= 0 {
		out = append(out, t.fragment(t.starts[from], t.end(hi)))
	}
	return out
}

// windows cuts line i into windows of maxLine bytes that overlap by
// windowOverlap, and keeps those that hold a keyword (all of them when the
// plan says keywords are not enough). The first window starts with the
// line before and the last ends with the line after, when those are short:
// a key and its value may be on neighbouring lines.
func windows(t *text, p plan, i int) []fragment {
	start, end := t.starts[i], t.end(i)
	lead, tail := start, end
	if i > 0 && t.size(i-1) <= maxLine {
		lead = t.starts[i-1]
	}
	if i+1 < t.lines() && t.size(i+1) <= maxLine {
		tail = t.end(i + 1)
	}
	var out []fragment
	for from := start; ; from += maxLine - windowOverlap {
		to := min(from+maxLine, end)
		a, b := from, to
		if from == start {
			a = lead
		}
		if to == end {
			b = tail
		}
		if k, _ := slices.BinarySearch(p.hits, a); !p.keywords || (k < len(p.hits) && p.hits[k] < b) {
			out = append(out, t.fragment(a, b))
		}
		if to == end {
			return out
		}
	}
}

// blockRegions returns, for the opening keywords of block secrets at
// offsets hits (sorted), the text from each keyword on, 2*maxBlock bytes
// long, whose lines include a judged one. A keyword that the region before
// covers with maxBlock bytes to spare starts no new region.
func blockRegions(t *text, hits []int, j judged) []fragment {
	var out []fragment
	covered := -1
	for _, h := range hits {
		if h+maxBlock <= covered {
			continue
		}
		end := min(h+2*maxBlock, len(t.data))
		first, _ := t.position(h)
		last, _ := t.position(end - 1)
		if !j.anyIn(first, last) {
			continue
		}
		out = append(out, t.fragment(h, end))
		covered = end
	}
	return out
}
