package report

import (
	"strings"
	"unicode"
)

// code renders untrusted text (paths, rule IDs, messages, revisions) for a
// Markdown paragraph as a code span that shows exactly that text, on one
// line. Nothing inside a code span is a link, an image, HTML, emphasis or a
// line break, and GitHub's own autolinking of URLs, e-mail addresses,
// @mentions and issue numbers skips code; the span's fence is longer than
// any run of backticks in the text, so the text cannot close it. Empty text
// gives an empty string.
func code(s string) string {
	s = Printable(s)
	if strings.TrimSpace(s) == "" {
		return ""
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	// CommonMark strips one space at each end of a code span when both are
	// there: the padding keeps a backtick at either end of s apart from the
	// fence, and is not shown.
	return fence + " " + s + " " + fence
}

// cell is code for a GFM table cell: pipes, which end a cell even inside a
// code span, are escaped as the table extension requires (it turns every
// \| back into | before it reads the span).
func cell(s string) string {
	return strings.ReplaceAll(code(s), "|", `\|`)
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return longest
}

// Printable replaces what must not reach a terminal, a log or a one-line
// Markdown construct with a space: control characters (line breaks, tabs,
// escape sequences) and the Unicode controls that reorder text for display
// (bidirectional overrides, embeddings and isolates, which can make a path
// read as another).
func Printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || isBidiControl(r) {
			return ' '
		}
		return r
	}, s)
}

// isBidiControl reports whether r is one of the Unicode formatting
// characters that change the display order of text.
func isBidiControl(r rune) bool {
	switch {
	case r == '\u061c', r == '\u200e', r == '\u200f':
		return true
	case '\u202a' <= r && r <= '\u202e', '\u2066' <= r && r <= '\u2069':
		return true
	}
	return false
}
