package secrets

import (
	"sort"
	"strings"
)

// cutReach is how much of a word before a cut point the detector is shown:
// more than any rule's match with its key (generic-api-key's reaches about
// 230 bytes).
const cutReach = 320

// cutLines is a text's words cut short, one a line: each word (a run of
// bytes without a blank or a quote) cut before each of its punctuation
// characters that follows a letter, a digit or "=". Many of gitleaks' rules
// only match a secret followed by a blank, a quote or the end of the text;
// in a path (".small/<key>.yml"), a configuration error ("(<key>(") or a
// message something else follows it, and on a line of its own the secret
// is recognised.
type cutLines struct {
	text string
	// starts holds the offset in text where each line starts, origins the
	// offset in the original text it was cut from.
	starts, origins []int
}

// cutText returns the cut words of text; its text is empty when no word
// has a cut point.
func cutText(text string) cutLines {
	var c cutLines
	var b strings.Builder
	for start := 0; start < len(text); {
		if wordBreak(text[start]) {
			start++
			continue
		}
		end := start
		for end < len(text) && !wordBreak(text[end]) {
			end++
		}
		for p := start + 1; p < end; p++ {
			if !cutPoint(text[p-1], text[p]) {
				continue
			}
			from := max(start, p-cutReach)
			c.starts = append(c.starts, b.Len())
			c.origins = append(c.origins, from)
			b.WriteString(text[from:p])
			b.WriteString(valueSeparator)
		}
		start = end
	}
	c.text = b.String()
	return c
}

// wordBreak reports a byte that ends a word: a blank or a quote, after
// which the rules recognise a secret already.
func wordBreak(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == '"' || c == '\'' || c == '`'
}

// cutPoint reports whether a word is cut between bytes prev and c: before
// punctuation (or a byte of a non-ASCII character) that follows a letter,
// a digit or the "=" that pads base64.
func cutPoint(prev, c byte) bool {
	return !alphanumeric(c) && (alphanumeric(prev) || prev == '=')
}

func alphanumeric(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// origin maps spans of the cut lines back to the original text; a span
// that runs past its line is cut at the line's end.
func (c cutLines) origin(spans []span) []span {
	var out []span
	for _, sp := range spans {
		i := max(sort.SearchInts(c.starts, sp.start+1)-1, 0)
		lineEnd := len(c.text) - len(valueSeparator)
		if i+1 < len(c.starts) {
			lineEnd = c.starts[i+1] - len(valueSeparator)
		}
		if sp.start >= lineEnd {
			continue
		}
		start := c.origins[i] + sp.start - c.starts[i]
		end := c.origins[i] + min(sp.end, lineEnd) - c.starts[i]
		out = append(out, span{start: start, end: end, preview: sp.preview})
	}
	return out
}
