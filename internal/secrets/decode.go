package secrets

import (
	"cmp"
	"encoding/base64"
	"slices"

	"github.com/zricethezav/gitleaks/v8/detect/codec"
)

// maxDecodeDepth is how many times gitleaks' decoder decodes what it
// decoded before (base64 of hex, percent-encoding of base64, …): the
// gitleaks CLI's default (--max-decode-depth 5), which every detector
// uses. A detector built in code decodes nothing unless told.
const maxDecodeDepth = 5

// maxSegment is the longest encoded text a fragment of a long line holds
// whole, and segmentOverlap how much of it consecutive pieces of a longer
// one share: a piece starts a multiple of 4 bytes from the text's start,
// so that base64 and hex decode piece by piece as they decode whole, and
// any match of up to 192 characters decoded from base64 (128 from \u
// escapes) lies whole in a piece. gitleaks runs a rule's allowlists over
// the whole decoded line of every candidate match, so a piece costs what
// a long line's window costs. A block secret (a private key, base64 runs
// to a few kB) is read whole from its encoded text's start, as a block
// (see blockRegions).
const (
	maxSegment     = 2 << 10
	segmentOverlap = 768
)

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

// encodedLine reports whether gitleaks' decoder may decode something on
// a line: a percent-escape (%41) or a Unicode escape (\u0041, U+0041)
// anywhere, or a run of base64 or hex characters ([A-Za-z0-9_/+-]) that
// decodes to printable text the way the decoder takes such a run (its hex
// prefix of 32 characters or more, the rest as base64, or the whole run
// as base64). Hashes, ids and did:key values, which most lines of
// protocol state hold, decode to no text: their lines are not handed to
// the decoder. FuzzEncodedLine holds it to the decoder itself.
func encodedLine(line []byte) bool {
	for i, c := range line {
		switch {
		case c == '%' && i+2 < len(line) && hexDigit(line[i+1]) && hexDigit(line[i+2]):
			return true
		case (c == '\\' && i+1 < len(line) && (line[i+1] == 'u' || line[i+1] == 'U')) || (c == 'U' && i+1 < len(line) && line[i+1] == '+'):
			if i+6 <= len(line) && hexDigit(line[i+2]) && hexDigit(line[i+3]) && hexDigit(line[i+4]) && hexDigit(line[i+5]) {
				return true
			}
		}
	}
	for i := 0; i < len(line); i++ {
		if !base64Char(line[i]) {
			continue
		}
		j := i
		for j < len(line) && base64Char(line[j]) {
			j++
		}
		if decodesToText(line[i:j], padding(line[j:])) {
			return true
		}
		i = j
	}
	return false
}

// decodesToText reports whether gitleaks' decoder decodes a run of base64
// or hex characters, followed by its padding, to text: a hex prefix of 32
// characters or more is decoded as hex, and the rest of the run (or the
// whole run) as base64 when it is 16 characters or more.
func decodesToText(run, pad []byte) bool {
	h := 0
	for h < len(run) && hexDigit(run[h]) {
		h++
	}
	if h >= 32 {
		if hexText(run[:h]) {
			return true
		}
		run = run[h:]
	}
	if len(run) < 16 {
		return false
	}
	return base64Text(append(run[:len(run):len(run)], pad...))
}

// padding returns the "=" (at most two) that rest starts with.
func padding(rest []byte) []byte {
	n := 0
	for n < len(rest) && n < 2 && rest[n] == '=' {
		n++
	}
	return rest[:n]
}

// hexText reports whether gitleaks decodes v as hex: an even length, a
// digit among its characters, and printable text.
func hexText(v []byte) bool {
	if len(v)%2 != 0 || !slices.ContainsFunc(v, func(c byte) bool { return '0' <= c && c <= '9' }) {
		return false
	}
	for i := 0; i < len(v); i += 2 {
		if !printable(unhex(v[i])<<4 | unhex(v[i+1])) {
			return false
		}
	}
	return true
}

// base64Text reports whether gitleaks decodes v as base64: a digit or one
// of _/+- among its characters, and printable text in the standard or the
// URL alphabet.
func base64Text(v []byte) bool {
	if !slices.ContainsFunc(v, func(c byte) bool { return '0' <= c && c <= '9' || c == '_' || c == '/' || c == '+' || c == '-' }) {
		return false
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawURLEncoding} {
		if out, err := enc.DecodeString(string(v)); err == nil && !slices.ContainsFunc(out, func(b byte) bool { return !printable(b) }) {
			return true
		}
	}
	return false
}

// printable is what gitleaks' decoder accepts as decoded text: a tab, a
// line break or printable ASCII.
func printable(b byte) bool {
	return '\x08' < b && b < '\x7f'
}

func base64Char(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '/' || c == '+' || c == '-'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
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
		for at := seg[0]; ; at += maxSegment - segmentOverlap {
			a, b := max(from, at), min(to, at+maxSegment)
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
