package secrets

import (
	"strings"

	"github.com/zricethezav/gitleaks/v8/report"
)

// match is a secret gitleaks found, located in the scanned text.
type match struct {
	rule, description string
	// start and end are the byte offsets of the match in the scanned text;
	// both are -1 for a rule that matched the file's path alone. For a
	// secret gitleaks' decoder found, they cover the encoded text.
	start, end int
	// secret is the secret itself, as gitleaks takes it (decoded when it
	// was encoded); "" for a path match.
	secret string
	// encoding says how the text was written when gitleaks' decoder found
	// the secret ("base64", "hex+percent"); "" for a secret written as it
	// is.
	encoding string
}

// locate turns a finding of gitleaks in fragment fr into a match: where
// it is in the scanned text, and the secret. A match that runs from one
// piece of a joined fragment into the next (a block rule's pattern runs
// across anything) is no match of the text, whose pieces do not meet
// there: ok is false.
func locate(fr fragment, f report.Finding) (m match, ok bool) {
	m = match{rule: f.RuleID, description: f.Description, start: -1, end: -1, encoding: encodingOf(f.Tags)}
	if f.StartLine < 1 {
		return m, true
	}
	start, end, ok := offsets(fr.text, f)
	end = min(end, len(fr.text)-1)
	if !ok {
		// The columns do not fit the text: keep the line at least.
		start = lineStart(fr.text, f.StartLine-1)
		end = start + 1
	}
	if fr.crosses(start, end) {
		return m, false
	}
	m.start, m.end = fr.offset(start), fr.offset(end-1)+1
	m.secret = f.Secret
	return m, true
}

// encodingOf reads, from a finding's tags, how gitleaks' decoder decoded
// its secret ("decoded:base64" tags), joined by "+"; "" when it did not.
func encodingOf(tags []string) string {
	var kinds []string
	for _, tag := range tags {
		if kind, ok := strings.CutPrefix(tag, "decoded:"); ok {
			kinds = append(kinds, kind)
		}
	}
	return strings.Join(kinds, "+")
}

// offsets returns where a finding's match starts and ends in text, which
// gitleaks scanned with StartLine 1. gitleaks' columns are 1-based on the
// text's first line, and one more on every later line (they count from the
// newline character before it).
func offsets(text string, f report.Finding) (start, end int, ok bool) {
	at := func(line, column int) int {
		off := lineStart(text, line-1)
		if off < 0 {
			return -1
		}
		if line > 1 {
			column--
		}
		return off + column
	}
	start, end = at(f.StartLine, f.StartColumn)-1, at(f.EndLine, f.EndColumn)
	if start < 0 || end <= start || end > len(text) {
		return 0, 0, false
	}
	return start, end, true
}

// lineStart returns the offset of the line that follows n newlines, or -1.
func lineStart(text string, n int) int {
	off := 0
	for ; n > 0; n-- {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off
}
