package secrets

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/small-hook/small-hook/internal/changes"
	leaks "github.com/small-hook/small-hook/internal/secrets"
	"github.com/small-hook/small-hook/rules"
)

// readerView is a file's text as a reader of its format sees it, line for
// line (see viewOf).
type readerView struct {
	// text has the file's lines; lines are those (1-based, sorted) that
	// read otherwise than written and are judged.
	text  []byte
	lines []int
	// reach maps a line that joins the lines after it to the last of
	// them (see rendered).
	reach map[int]int
}

// viewOf returns the view of a change's new version that its format's
// readers have, on the lines added (added; nil: every line): JSON's
// string escapes in *.json and *.jsonl files (\u0067 is g), Markdown as
// it renders in *.md files (see renderMarkdown). YAML is decoded whole
// (see addedDecoded). Empty for other formats, and when no added line
// holds what reads otherwise.
func viewOf(p string, data []byte, added []int) readerView {
	switch path.Ext(p) {
	case ".json", ".jsonl":
		text, lines := unescapeLines(data, added, unescapeJSON, `\`)
		return readerView{text: text, lines: lines}
	case ".md", ".markdown":
		return markdownView(data, added)
	}
	return readerView{}
}

// markdownView renders a Markdown file when one of the added lines holds
// markup (or a non-ASCII character, which may be invisible), and keeps
// the rendered lines that read otherwise and join an added line.
func markdownView(data []byte, added []int) readerView {
	if added != nil && !anyLineHolds(data, added, func(b byte) bool {
		return b >= 0x80 || strings.IndexByte(markdownMarks, b) >= 0
	}) {
		return readerView{}
	}
	r := renderMarkdown(data)
	v := readerView{text: r.text, reach: r.reach}
	for _, n := range r.changed {
		if added == nil || touches(added, n, max(n, r.reach[n])) {
			v.lines = append(v.lines, n)
		}
	}
	return v
}

// anyLineHolds reports whether one of the given lines (1-based, sorted)
// of data holds a byte mark accepts.
func anyLineHolds(data []byte, lines []int, mark func(byte) bool) bool {
	n := 0
	for line := range bytes.Lines(data) {
		n++
		for len(lines) > 0 && lines[0] < n {
			lines = lines[1:]
		}
		if len(lines) == 0 {
			return false
		}
		if lines[0] == n && bytes.IndexFunc(line, func(r rune) bool { return r >= utf8.RuneSelf || mark(byte(r)) }) >= 0 {
			return true
		}
	}
	return false
}

// addedUnescaped scans the added lines of a change that read otherwise
// than written in its format (see viewOf), as a reader of the format sees
// them, with the lines around them as the reader sees them, and returns
// what the raw scan (raw) did not already find on those lines.
func addedUnescaped(pass *rules.Pass, ch changes.Change, commit string, raw []leaks.Finding) ([]leaks.Finding, error) {
	var added []int
	if pass.Unit.Mode != changes.ModeTree {
		added, _, _ = addedAt(pass, ch)
		if len(added) == 0 && added != nil {
			return nil, nil
		}
	}
	view := viewOf(ch.Path, ch.New.Data, added)
	if len(view.lines) == 0 {
		return nil, nil
	}
	found, err := pass.Secrets.ScanPart(leaks.Part{Path: ch.Path, Data: view.text, Lines: view.lines, Commit: commit, Protocol: governed(ch)})
	if err != nil {
		return nil, fmt.Errorf("scanning %s for secrets as its readers see it: %w", ch.Path, err)
	}
	var out []leaks.Finding
	for _, f := range found {
		if last, ok := view.reach[f.EndLine]; ok {
			f.EndLine = last
		}
		seen := slices.ContainsFunc(raw, func(r leaks.Finding) bool { return r.RuleID == f.RuleID && r.Line == f.Line })
		if !seen && (pass.Unit.Mode == changes.ModeTree || addsTo(ch, f)) {
			out = append(out, f)
		}
	}
	return out, nil
}

// unescapeLines returns data with each given line (1-based, sorted; nil:
// every line) that holds one of the marks unescaped, and the lines that
// read otherwise unescaped; the other lines are left as they are, and no
// line is added or removed.
func unescapeLines(data []byte, lines []int, unescape func(string) string, marks string) ([]byte, []int) {
	if lines != nil && len(lines) == 0 || !bytes.ContainsAny(data, marks) {
		return nil, nil
	}
	var out bytes.Buffer
	var changed []int
	n := 0
	for line := range bytes.Lines(data) {
		n++
		for len(lines) > 0 && lines[0] < n {
			lines = lines[1:]
		}
		if lines != nil && (len(lines) == 0 || lines[0] != n) || !bytes.ContainsAny(line, marks) {
			out.Write(line)
			continue
		}
		body := bytes.TrimRight(line, "\r\n")
		plain := unescape(string(body))
		if plain != string(body) {
			changed = append(changed, n)
		}
		out.WriteString(plain)
		out.Write(line[len(body):])
	}
	if len(changed) == 0 {
		return nil, nil
	}
	return out.Bytes(), changed
}

// unescapeJSON resolves the escapes of the JSON strings on a line; a
// character that would end the line (\n, \r, other controls) becomes a
// space.
func unescapeJSON(line string) string {
	var b strings.Builder
	inString := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '"':
			inString = !inString
		case c == '\\' && inString && i+1 < len(line):
			r, size := jsonEscape(line[i:])
			b.WriteRune(visible(r))
			i += size - 1
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// jsonEscape decodes the escape s starts with and returns the character
// and the escape's length; an escape JSON does not know stands for its
// backslash.
func jsonEscape(s string) (rune, int) {
	switch s[1] {
	case '"', '\\', '/':
		return rune(s[1]), 2
	case 'b', 'f', 'n', 'r', 't':
		return ' ', 2
	case 'u':
		r, ok := hex4(s[2:])
		if !ok {
			break
		}
		if utf16.IsSurrogate(r) && len(s) >= 12 && s[6:8] == `\u` {
			if low, ok := hex4(s[8:]); ok {
				if pair := utf16.DecodeRune(r, low); pair != utf8.RuneError {
					return pair, 12
				}
			}
		}
		return r, 6
	}
	return '\\', 1
}

// hex4 decodes the four hexadecimal digits s starts with.
func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	return rune(v), err == nil
}

// visible replaces a control character, which would break the line, with
// a space.
func visible(r rune) rune {
	if r < 0x20 && r != '\t' || r == 0x7f {
		return ' '
	}
	return r
}
