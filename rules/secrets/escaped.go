package secrets

import (
	"bytes"
	"fmt"
	"html"
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

// unescaper returns how a file's format writes text that its readers see
// otherwise, one line at a time, and the byte that starts every escape:
// JSON's string escapes in *.json and *.jsonl files (\u0067 is g) and
// Markdown's character references and backslash escapes in *.md files
// (&#103; and &#x67; are g, \_ is _). YAML is decoded whole (see
// addedDecoded). nil for other formats.
func unescaper(p string) (unescape func(string) string, marks string) {
	switch path.Ext(p) {
	case ".json", ".jsonl":
		return unescapeJSON, `\`
	case ".md", ".markdown":
		return unescapeMarkdown, `\&`
	}
	return nil, ""
}

// addedUnescaped scans the added lines of a change that its format's
// escapes hide something on (see unescaper), as a reader of the format
// sees them, with the lines around them as they are, and returns what the
// raw scan (raw) did not already find on those lines.
func addedUnescaped(pass *rules.Pass, ch changes.Change, commit string, raw []leaks.Finding) ([]leaks.Finding, error) {
	unescape, marks := unescaper(ch.Path)
	if unescape == nil {
		return nil, nil
	}
	var added []int
	if pass.Unit.Mode != changes.ModeTree {
		added, _, _ = addedAt(pass, ch)
	}
	text, lines := unescapeLines(ch.New.Data, added, unescape, marks)
	if len(lines) == 0 {
		return nil, nil
	}
	found, err := pass.Secrets.ScanPart(leaks.Part{Path: ch.Path, Data: text, Lines: lines, Commit: commit, Protocol: governed(ch)})
	if err != nil {
		return nil, fmt.Errorf("scanning %s for secrets its escapes hide: %w", ch.Path, err)
	}
	var out []leaks.Finding
	for _, f := range found {
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

// unescapeMarkdown resolves a Markdown line's backslash escapes (a
// backslash before ASCII punctuation stands for the punctuation) and
// character references (&#103;, &#x67;, &amp;), once, as a renderer does;
// a character that would end the line becomes a space.
func unescapeMarkdown(line string) string {
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line) && isASCIIPunct(line[i+1]):
			b.WriteByte(line[i+1])
			i++
			continue
		case c == '&':
			if ref := charRef(line[i:]); ref != "" {
				for _, r := range html.UnescapeString(ref) {
					b.WriteRune(visible(r))
				}
				i += len(ref) - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// charRef returns the character reference s starts with ("&#103;",
// "&amp;"), or "".
func charRef(s string) string {
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 33 {
		return ""
	}
	for _, c := range s[1:end] {
		if !(c == '#' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return ""
		}
	}
	return s[:end+1]
}

func isASCIIPunct(c byte) bool {
	return strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) >= 0
}

// visible replaces a control character, which would break the line, with
// a space.
func visible(r rune) rune {
	if r < 0x20 && r != '\t' || r == 0x7f {
		return ' '
	}
	return r
}
