package secrets

import (
	"bytes"

	"github.com/small-hook/small-hook/internal/affix"
	"github.com/small-hook/small-hook/internal/changes"
	leaks "github.com/small-hook/small-hook/internal/secrets"
)

// withContext moves the start of the text handed to the scanner, at byte
// offset from and file line first, back to the start of a line at least
// leaks.LeadingContext bytes earlier (when the file has them): a block
// secret that encloses an added line, or the key of a value added on the
// next line, is only recognised whole.
func withContext(data []byte, from, first int) (int, int) {
	start := max(from-leaks.LeadingContext, 0)
	start = bytes.LastIndexByte(data[:start], '\n') + 1
	return start, first - bytes.Count(data[start:from], []byte("\n"))
}

// addsTo reports whether a finding's match covers a line of the new
// version that no old version holds: a private key whose BEGIN and END
// lines were already there is new when a line of its body is.
func addsTo(ch changes.Change, f leaks.Finding) bool {
	return f.Line == 0 || spanAdded(ch, f.Line, f.EndLine)
}

// inOldVersion reports whether line n of the new version occurs whole in
// the old version (in a parent, for a merge): it was not added. The lines
// scanned are a cheap superset of the added ones (see addedLines); this
// exact test runs only for the rare line that holds a finding.
func inOldVersion(ch changes.Change, n int) bool {
	line := lineAt(ch.New.Data, n)
	for _, b := range oldVersions(ch) {
		if hasLine(b.Data, line) {
			return true
		}
	}
	return false
}

// oldVersions lists the regular-file versions a change is compared with:
// the old file, or for a merge the file at every parent.
func oldVersions(ch changes.Change) []*changes.Blob {
	olds := []*changes.Blob{ch.Old}
	if ch.Merge != nil {
		olds = ch.Merge.Parents
	}
	var out []*changes.Blob
	for _, b := range olds {
		if b != nil && b.Regular() == nil {
			out = append(out, b)
		}
	}
	return out
}

// lineAt returns line n (1-based) of data without its line ending.
func lineAt(data []byte, n int) []byte {
	for ; n > 1; n-- {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil
		}
		data = data[i+1:]
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i]
	}
	return bytes.TrimRight(data, "\r")
}

// hasLine reports whether text holds line as a whole line (ignoring a
// carriage return before the newline).
func hasLine(text, line []byte) bool {
	for off := 0; off <= len(text); {
		i := bytes.Index(text[off:], line)
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(line)
		rest := text[end:]
		if (start == 0 || text[start-1] == '\n') &&
			(len(rest) == 0 || rest[0] == '\n' || bytes.HasPrefix(rest, []byte("\r\n")) || (rest[0] == '\r' && len(rest) == 1)) {
			return true
		}
		off = start + 1
	}
	return false
}

// addedLines returns the 1-based lines of the new version that are in no
// old version (nil: every line, for a file with no old version), and the
// byte offset and line number where the first of them can start. A secret
// already committed was reported when it was added. The common prefix and
// suffix are skipped byte-wise first, so an append to a large file costs
// only what was appended.
func addedLines(ch changes.Change) (lines []int, from, first int) {
	var texts [][]byte
	for _, b := range oldVersions(ch) {
		texts = append(texts, b.Data)
	}
	if len(texts) == 0 {
		return nil, 0, 1
	}
	cur := ch.New.Data
	start, end := 0, len(cur)
	if len(texts) == 1 {
		start, end = commonLines(texts[0], cur)
		texts[0] = texts[0][start : len(texts[0])-(len(cur)-end)]
	}
	seen := map[string]bool{}
	for _, t := range texts {
		for _, l := range bytes.Split(t, []byte("\n")) {
			seen[string(bytes.TrimRight(l, "\r"))] = true
		}
	}
	lines = []int{}
	first = 1 + bytes.Count(cur[:start], []byte("\n"))
	if start == end {
		return lines, start, first
	}
	for i, l := range bytes.Split(cur[start:end], []byte("\n")) {
		if !seen[string(bytes.TrimRight(l, "\r"))] {
			lines = append(lines, first+i)
		}
	}
	return lines, start, first
}

// commonLines returns the byte range [start, end) of cur that is not part
// of the whole lines cur shares with old at its start and at its end.
func commonLines(old, cur []byte) (start, end int) {
	n := affix.CommonPrefix(old, cur)
	start = bytes.LastIndexByte(cur[:n], '\n') + 1
	if n == len(old) && n == len(cur) {
		return len(cur), len(cur)
	}
	m := affix.CommonSuffix(old[start:], cur[start:])
	end = len(cur) - m
	if i := bytes.IndexByte(cur[end:], '\n'); i >= 0 && end > start {
		end += i + 1
	} else {
		end = len(cur)
	}
	return start, max(start, end)
}
