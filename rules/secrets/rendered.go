package secrets

import (
	"bytes"
	"html"
	"strings"
	"unicode"
	"unicode/utf8"
)

// rendered is a Markdown file as its readers see it (see renderMarkdown).
type rendered struct {
	// text has as many lines as the file. A line that markup spanning
	// lines (a comment, a tag) joins to the lines after it holds their
	// text, and those lines are left empty.
	text []byte
	// changed lists the lines (1-based, sorted) whose text differs from
	// the file's.
	changed []int
	// reach maps a joined line to the last file line it takes text from.
	reach map[int]int
	// work counts the bytes the renderer examined, look-ahead included:
	// at most a few times the file's (TestRenderingIsLinear).
	work int
}

// markdownMarks are the bytes that start markup a reader does not see as
// it is written: a file none of whose added lines holds one (nor a byte of
// a non-ASCII character, which may be invisible) renders to itself there.
const markdownMarks = "\\&<>*_~`[]!"

// renderMarkdown returns the text a reader of a Markdown file sees, line
// for line: character references and backslash escapes resolved (&#103;
// is g, \_ is _); HTML comments, processing instructions, declarations,
// CDATA sections and tags left out (the text inside a tag pair stays);
// emphasis and strikethrough markers (*, ~, and _ but within a word) and
// code-span backticks left out; a link or an image shown as its text
// ([text](url "title"), [text][ref]); and invisible characters (a zero
// width space, a soft hyphen) left out. So "ghp_a1B2<!-- -->c3D4", an
// empty "<span></span>", "**" or a link inside a token give the token a
// reader sees. It is a superset of what CommonMark renders: markup inside
// a code span or block, which shows as written, is left out too. One pass
// over the file, each byte examined a bounded number of times.
func renderMarkdown(data []byte) rendered {
	r := renderer{src: data, line: 1, out: 1, last: map[string]int{}}
	r.text.Grow(len(data))
	for r.i < len(data) {
		r.step()
	}
	r.flush()
	out := rendered{text: r.text.Bytes(), reach: r.reach, work: r.work + len(data)}
	src, got := data, out.text
	for n := 1; len(src) > 0 || len(got) > 0; n++ {
		a, b := cutLine(src), cutLine(got)
		if !bytes.Equal(src[:a], got[:b]) {
			out.changed = append(out.changed, n)
		}
		src, got = src[a:], got[b:]
	}
	return out
}

// cutLine returns the length of the first line of b, newline included.
func cutLine(b []byte) int {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return i + 1
	}
	return len(b)
}

// renderer is the state of renderMarkdown.
type renderer struct {
	src  []byte
	i    int
	text bytes.Buffer
	// line is the file line of src[i]; out the line of text being
	// written; hidden the line breaks left out since the last one
	// written (markup across lines).
	line, out, hidden int
	reach             map[int]int
	// last holds, for each closing string looked for, where it last
	// occurs in src (-1: nowhere): an opening with no closing after it
	// is text, found without a search.
	last map[string]int
	// parens maps, on line parenLine, the offset of each "(" to that of
	// the ")" that closes it on the line, for links.
	parens    map[int]int
	parenLine int
	work      int
}

// step renders the markup or the character at r.i.
func (r *renderer) step() {
	src, i := r.src, r.i
	c := src[i]
	switch {
	case c == '\n':
		r.newline()
	case c == '\\' && i+1 < len(src) && isASCIIPunct(src[i+1]):
		r.text.WriteByte(src[i+1])
		r.i += 2
	case c == '&':
		ref := charRef(string(src[i:min(i+34, len(src))]))
		if ref == "" {
			r.text.WriteByte(c)
			r.i++
			return
		}
		for _, ch := range html.UnescapeString(ref) {
			if !unicode.Is(unicode.Cf, ch) {
				r.text.WriteRune(visible(ch))
			}
		}
		r.i += len(ref)
	case c == '<':
		if end := r.markup(); end > i {
			r.skip(end)
			return
		}
		r.text.WriteByte(c)
		r.i++
	case c == '*' || c == '~' || c == '`' || c == '[':
		r.i++
	case c == '!' && i+1 < len(src) && src[i+1] == '[':
		r.i++
	case c == ']':
		r.i = r.linkEnd()
	case c == '_':
		end := i
		for end < len(src) && src[end] == '_' {
			end++
		}
		if i > 0 && alnum(src[i-1]) && end < len(src) && alnum(src[end]) {
			r.text.Write(src[i:end]) // within a word: no emphasis
		}
		r.i = end
	case c >= utf8.RuneSelf:
		ch, size := utf8.DecodeRune(src[i:])
		if !unicode.Is(unicode.Cf, ch) {
			r.text.Write(src[i : i+size])
		}
		r.i += size
	default:
		r.text.WriteByte(c)
		r.i++
	}
}

// newline writes the line break at r.i and the line breaks markup hid
// since the last one, after the text of the lines it joined.
func (r *renderer) newline() {
	r.text.WriteByte('\n')
	r.flush()
	r.out++
	r.line++
	r.i++
}

// flush writes the line breaks markup hid, so that the text keeps the
// file's lines, and records how far the joined line reaches.
func (r *renderer) flush() {
	if r.hidden == 0 {
		return
	}
	if r.reach == nil {
		r.reach = map[int]int{}
	}
	r.reach[r.out] = r.line
	for range r.hidden {
		r.text.WriteByte('\n')
	}
	r.out += r.hidden
	r.hidden = 0
}

// skip leaves out src[r.i:end], counting the line breaks it hides.
func (r *renderer) skip(end int) {
	n := bytes.Count(r.src[r.i:end], []byte("\n"))
	r.line += n
	r.hidden += n
	r.i = end
}

// markup returns the end of the markup a reader does not see that starts
// at r.i ("<"), or r.i when there is none: a comment, a processing
// instruction, a declaration, a CDATA section, or a tag.
func (r *renderer) markup() int {
	src, i := r.src, r.i
	rest := src[i:]
	switch {
	case bytes.HasPrefix(rest, []byte("<!-->")):
		return i + 5
	case bytes.HasPrefix(rest, []byte("<!--->")):
		return i + 6
	case bytes.HasPrefix(rest, []byte("<!--")):
		return r.closedBy(i+4, "-->")
	case bytes.HasPrefix(rest, []byte("<?")):
		return r.closedBy(i+2, "?>")
	case bytes.HasPrefix(rest, []byte("<![CDATA[")):
		return r.closedBy(i+9, "]]>")
	case bytes.HasPrefix(rest, []byte("<!")) && len(rest) > 2 && letter(rest[2]):
		return r.closedBy(i+3, ">")
	}
	return r.tag()
}

// closedBy returns the end of the closing string that first follows
// offset from, or r.i when none does.
func (r *renderer) closedBy(from int, closing string) int {
	last, ok := r.last[closing]
	if !ok {
		last = bytes.LastIndex(r.src, []byte(closing))
		r.last[closing] = last
	}
	if last < from {
		return r.i
	}
	k := bytes.Index(r.src[from:], []byte(closing))
	r.work += k + len(closing)
	return from + k + len(closing)
}

// tag returns the end of the HTML tag at r.i ("<name …>" or "</name>"),
// or r.i when there is none. A tag ends at the first ">"; one that meets a
// "<" or a blank line first is text (the search then ends at the next
// "<", so no byte is searched twice).
func (r *renderer) tag() int {
	src, i := r.src, r.i
	j := i + 1
	if j < len(src) && src[j] == '/' {
		j++
	}
	if j >= len(src) || !letter(src[j]) {
		return i
	}
	for j < len(src) && (alnum(src[j]) || src[j] == '-') {
		j++
	}
	if j < len(src) && !(src[j] == '>' || src[j] == '/' || src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
		return i
	}
	for ; j < len(src); j++ {
		r.work++
		switch src[j] {
		case '>':
			return j + 1
		case '<':
			return i
		case '\n':
			if k := bytes.IndexByte(src[j+1:], '\n'); k >= 0 && len(bytes.TrimSpace(src[j+1:j+1+k])) == 0 {
				r.work += k
				return i
			}
		}
	}
	return i
}

// linkEnd returns where rendering goes on after the "]" at r.i: past the
// destination and title of an inline link ("](url \"title\")") or the
// label of a reference link ("][ref]") on the same line, or just past
// the "]".
func (r *renderer) linkEnd() int {
	src, i := r.src, r.i
	if i+1 >= len(src) {
		return i + 1
	}
	switch src[i+1] {
	case '(':
		if end, ok := r.closingParen(i + 1); ok {
			return end + 1
		}
	case '[':
		lineEnd := i + 2 + cutLine(src[i+2:])
		if k := bytes.IndexByte(src[i+2:lineEnd], ']'); k >= 0 {
			r.work += k
			return i + 2 + k + 1
		}
		// No "]" after this one on the line, so no other "][" either: at
		// most one search a line fails.
		r.work += lineEnd - i
	}
	return i + 1
}

// closingParen returns the offset of the ")" that closes the "(" at open
// on its line, matching the parentheses of the line once.
func (r *renderer) closingParen(open int) (int, bool) {
	if r.parens == nil || r.parenLine != r.line {
		r.parens, r.parenLine = map[int]int{}, r.line
		lineEnd := open + cutLine(r.src[open:])
		var stack []int
		for j := open; j < lineEnd; j++ {
			switch r.src[j] {
			case '(':
				stack = append(stack, j)
			case ')':
				if n := len(stack); n > 0 {
					r.parens[stack[n-1]] = j
					stack = stack[:n-1]
				}
			}
		}
		r.work += lineEnd - open
	}
	end, ok := r.parens[open]
	return end, ok
}

func letter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func alnum(c byte) bool { return letter(c) || '0' <= c && c <= '9' }

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
