package secrets

import (
	"cmp"
	"slices"

	"github.com/zricethezav/gitleaks/v8/detect/codec"
)

// maxDecodeDepth is how many times gitleaks' decoder decodes what it
// decoded before (base64 of hex, percent-encoding of base64, …): the
// gitleaks CLI's default (--max-decode-depth 5), which every detector
// uses. A detector built in code decodes nothing unless told.
const maxDecodeDepth = 5

// maxSegment is the longest encoded text a fragment of a long line holds
// whole: a longer one (a private key base64-encoded runs to a few kB) is
// handed over in pieces of this size that start a multiple of 4 bytes
// from its start, so that base64 and hex decode piece by piece as they
// decode whole.
const maxSegment = 8 << 10

// walkDecoded records the keywords that gitleaks' decoder shows on the
// lines of t from line lo to line hi (0-based, inclusive), past line after,
// and returns the last line it decoded. It decodes, as gitleaks does up to
// maxDecodeDepth times, each line that could hold encoded text (see
// encodedLine) with the lines a U+0041 sequence continues it onto (the
// only encoded text gitleaks reads across lines), and records each
// keyword that decoding brought out (one that overlaps decoded text) at
// the start of its encoded text: that text is a segment of the plan, and
// its lines hold a keyword. A line that cannot hold encoded text costs one
// pass of a byte test.
func (s *Scanner) walkDecoded(t *text, lo, hi, after int, p *plan, hit []bool) int {
	decoder := codec.NewDecoder()
	for i := max(lo, after+1); i <= hi; i++ {
		if !encodedLine(t.line(i)) {
			continue
		}
		first := i
		for first > after+1 && continuesUnicode(t.line(first-1), t.line(first)) {
			first--
		}
		for i+1 < t.lines() && continuesUnicode(t.line(i), t.line(i+1)) {
			i++
		}
		s.decodeRun(decoder, t, t.starts[first], t.end(i), p, hit)
		after = i
	}
	return after
}

// decodeRun decodes t's text from offset from to offset to and records
// what decoding shows (see walkDecoded).
func (s *Scanner) decodeRun(decoder *codec.Decoder, t *text, from, to int, p *plan, hit []bool) {
	current := string(t.data[from:to])
	var segments []*codec.EncodedSegment
	for range maxDecodeDepth {
		if current, segments = decoder.Decode(current, segments); len(segments) == 0 {
			return
		}
		lower := asciiLower([]byte(current))
		last := [2]int{-1, -1}
		s.trie.Walk(lower, func(end, size, _ int64) bool {
			a, b := int(end-size+1), int(end+1)
			if len(codec.SegmentsWithDecodedOverlap(segments, a, b)) == 0 {
				return true // raw text: walkKeywords found it
			}
			orig := codec.AdjustMatchIndex(segments, []int{a, b})
			start, stop := from+orig[0], min(from+orig[1], to)
			keyword := string(lower[a:b])
			p.record(start, keyword)
			if s.blockKeywords[keyword] {
				p.blocks = append(p.blocks, start)
			}
			if extent := [2]int{start, stop}; extent != last {
				last = extent
				p.segments = append(p.segments, extent)
				for line := t.index(start); line <= t.index(max(stop-1, start)); line++ {
					hit[line] = true
				}
			}
			return true
		})
	}
}

// continuesUnicode reports whether gitleaks reads a sequence of U+0041
// escapes from line on into next: line ends with one and next starts with
// one.
func continuesUnicode(line, next []byte) bool {
	end := len(line) - 1
	if end < 0 || line[end] != '\n' {
		return false
	}
	return end >= 6 && unicodeEscape(line[end-6:end]) && len(next) >= 6 && unicodeEscape(next[:6])
}

// unicodeEscape reports whether b is U+ and four hexadecimal digits.
func unicodeEscape(b []byte) bool {
	return len(b) == 6 && b[0] == 'U' && b[1] == '+' && hexDigit(b[2]) && hexDigit(b[3]) && hexDigit(b[4]) && hexDigit(b[5])
}

// encodedLine reports whether a line may hold text that gitleaks' decoder
// decodes: a percent-escape (%41), a Unicode escape (\u0041, U+0041), or
// a run of at least 16 characters of base64 or hex ([A-Za-z0-9_/+-]) with
// a character among them that gitleaks requires of either (a digit, or
// one of _/+-). A superset of the lines holding a segment that decodes.
func encodedLine(line []byte) bool {
	run, likely := 0, false
	for i, c := range line {
		switch {
		case c == '%' && i+2 < len(line) && hexDigit(line[i+1]) && hexDigit(line[i+2]):
			return true
		case (c == '\\' && i+1 < len(line) && (line[i+1] == 'u' || line[i+1] == 'U')) ||
			(c == 'U' && i+1 < len(line) && line[i+1] == '+'):
			if i+6 <= len(line) && hexDigit(line[i+2]) && hexDigit(line[i+3]) && hexDigit(line[i+4]) && hexDigit(line[i+5]) {
				return true
			}
		}
		switch {
		case '0' <= c && c <= '9', c == '_', c == '/', c == '+', c == '-':
			run, likely = run+1, true
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
			run++
		default:
			run, likely = 0, false
		}
		if run >= 16 && likely {
			return true
		}
	}
	return false
}

func hexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// segmentFragments returns, for the encoded texts (segments) that lie on
// line i, a long one, fragments that hold each whole with windowOverlap
// bytes of the line on either side (a key before it, the rest of a token
// after it), in pieces of maxSegment bytes past that size (see
// maxSegment).
func segmentFragments(t *text, p plan, i int) []fragment {
	start, end := t.starts[i], t.end(i)
	k, _ := slices.BinarySearchFunc(p.segments, start, func(seg [2]int, off int) int { return cmp.Compare(seg[0], off) })
	for k > 0 && p.segments[k-1][1] > start {
		k-- // a U+0041 sequence from the lines before
	}
	var out []fragment
	covered := -1
	for _, seg := range p.segments[k:] {
		if seg[0] >= end {
			break
		}
		if seg[1] <= start || seg[1] <= covered {
			continue
		}
		from, to := max(start, seg[0]-windowOverlap), min(end, seg[1]+windowOverlap)
		for at := seg[0]; ; at += maxSegment - windowOverlap {
			a, b := max(from, at-windowOverlap), min(to, at+maxSegment)
			if at == seg[0] {
				a = from
			}
			out = append(out, t.fragment(a, b))
			if b >= to {
				break
			}
		}
		covered = seg[1]
	}
	return out
}
