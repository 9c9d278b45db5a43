package shell

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

type tokenKind int

const (
	tokEOF tokenKind = iota
	tokNewline
	tokOperator // ; & && || | |& ;; ( )
	tokRedirect // < > >> >| <> << <<- <<< &> &>> >& <&
	tokWord
)

type token struct {
	kind tokenKind
	text string
	// dynamic: the word holds an expansion; quoted: some of it was
	// quoted or escaped; assign: it is NAME=value with an unquoted name.
	dynamic, quoted, assign bool
}

// lexer reads tokens from src as bash does, and parses the scripts of the
// substitutions it meets into nested.
type lexer struct {
	src    string
	pos    int
	back   []token
	nested []Command
	// skipping is set while skipBalanced passes over a substitution's
	// text, which is parsed whole afterwards: what lies inside it is not
	// parsed twice.
	skipping bool
	// depth is how many substitutions deep src lies; scanned counts the
	// bytes every parse of the script has read.
	depth   int
	scanned *int
}

func (l *lexer) unread(t token) { l.back = append(l.back, t) }

func (l *lexer) peek(off int) byte {
	if l.pos+off < len(l.src) {
		return l.src[l.pos+off]
	}
	return 0
}

// next returns the next token.
func (l *lexer) next() token {
	if n := len(l.back); n > 0 {
		t := l.back[n-1]
		l.back = l.back[:n-1]
		return t
	}
	for {
		if l.pos >= len(l.src) {
			return token{kind: tokEOF}
		}
		c := l.src[l.pos]
		switch {
		case c == ' ' || c == '\t':
			l.pos++
		case c == '\\' && l.peek(1) == '\n':
			l.pos += 2
		case c == '#':
			for l.pos < len(l.src) && l.src[l.pos] != '\n' {
				l.pos++
			}
		case c == '\n':
			l.pos++
			return token{kind: tokNewline}
		default:
			if t, ok := l.operator(); ok {
				return t
			}
			return l.word()
		}
	}
}

// operators lists the operators, longest first where one is a prefix of
// another.
var operators = []struct {
	text string
	kind tokenKind
}{
	{"&>>", tokRedirect}, {"<<<", tokRedirect}, {"<<-", tokRedirect},
	{"&&", tokOperator}, {"||", tokOperator}, {";;", tokOperator}, {"|&", tokOperator},
	{">>", tokRedirect}, {">|", tokRedirect}, {"<>", tokRedirect}, {"<<", tokRedirect},
	{"&>", tokRedirect}, {">&", tokRedirect}, {"<&", tokRedirect},
	{";", tokOperator}, {"&", tokOperator}, {"|", tokOperator}, {"(", tokOperator}, {")", tokOperator},
	{"<", tokRedirect}, {">", tokRedirect},
}

// operator reads an operator at the current position; a process
// substitution (<(…), >(…)) is read as a word.
func (l *lexer) operator() (token, bool) {
	rest := l.src[l.pos:]
	if (strings.HasPrefix(rest, "<(") || strings.HasPrefix(rest, ">(")) && l.pos+1 < len(l.src) {
		return token{}, false
	}
	for _, op := range operators {
		if strings.HasPrefix(rest, op.text) {
			l.pos += len(op.text)
			return token{kind: op.kind, text: op.text}, true
		}
	}
	return token{}, false
}

// isMeta reports a character that ends an unquoted word.
func isMeta(c byte) bool {
	switch c {
	case ' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')':
		return true
	}
	return false
}

// word reads one word: quotes removed, escapes applied, substitutions
// parsed into nested and kept as written.
func (l *lexer) word() token {
	var b strings.Builder
	t := token{kind: tokWord}
	nameOK := true // every character so far is unquoted and fits a name
	start := l.pos
	if l.src[l.pos] == '~' {
		t.dynamic = true // a tilde expansion
	}
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if isMeta(c) {
			if (c == '<' || c == '>') && l.peek(1) == '(' {
				l.processSubstitution(&b)
				t.dynamic = true
				nameOK = false
				continue
			}
			if c == '<' || c == '>' {
				if isDigits(l.src[start:l.pos]) && !t.quoted {
					// An IO number: "2>" redirects descriptor 2.
					op, _ := l.operator()
					return op
				}
			}
			break
		}
		switch c {
		case '\\':
			l.pos++
			if l.pos < len(l.src) {
				if l.src[l.pos] != '\n' {
					b.WriteByte(l.src[l.pos])
				}
				l.pos++
			}
			t.quoted = true
			nameOK = false
		case '\'':
			end := strings.IndexByte(l.src[l.pos+1:], '\'')
			if end < 0 {
				end = len(l.src) - l.pos - 1
			}
			b.WriteString(l.src[l.pos+1 : l.pos+1+end])
			l.pos = min(len(l.src), l.pos+end+2)
			t.quoted = true
			nameOK = false
		case '"':
			l.pos++
			if l.doubleQuoted(&b) {
				t.dynamic = true
			}
			t.quoted = true
			nameOK = false
		case '$':
			if l.dollar(&b) {
				t.dynamic = true
			}
			nameOK = false
		case '`':
			l.backquote(&b)
			t.dynamic = true
			nameOK = false
		case '=':
			if nameOK && b.Len() > 0 && !t.assign {
				t.assign = true
			}
			nameOK = false
			b.WriteByte(c)
			l.pos++
		case '+':
			if nameOK && b.Len() > 0 && l.peek(1) == '=' {
				t.assign = true
				nameOK = false
				b.WriteString("+=")
				l.pos += 2
				continue
			}
			nameOK = false
			b.WriteByte(c)
			l.pos++
		default:
			if nameOK && !isNameByte(c, b.Len() == 0) {
				nameOK = false
			}
			b.WriteByte(c)
			l.pos++
		}
	}
	t.text = b.String()
	return t
}

func isNameByte(c byte, first bool) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || !first && c >= '0' && c <= '9'
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// doubleQuoted reads the rest of a double-quoted string (after its opening
// quote) into b and reports whether it holds an expansion.
func (l *lexer) doubleQuoted(b *strings.Builder) bool {
	dynamic := false
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch c {
		case '"':
			l.pos++
			return dynamic
		case '\\':
			n := l.peek(1)
			switch n {
			case '$', '`', '"', '\\':
				b.WriteByte(n)
				l.pos += 2
			case '\n':
				l.pos += 2
			default:
				b.WriteByte(c)
				l.pos++
			}
		case '$':
			if l.dollar(b) {
				dynamic = true
			}
		case '`':
			l.backquote(b)
			dynamic = true
		default:
			b.WriteByte(c)
			l.pos++
		}
	}
	return dynamic
}

// dollar reads what starts with $ and reports whether it is an expansion:
// $'…' (ANSI-C quoting) is literal text; $(…) is a command substitution,
// parsed; $((…)), ${…} and $name are expansions, kept as written.
func (l *lexer) dollar(b *strings.Builder) bool {
	start := l.pos
	switch n := l.peek(1); {
	case n == '\'':
		l.pos += 2
		l.ansiC(b)
		return false
	case n == '"':
		l.pos += 2
		return l.doubleQuoted(b)
	case n == '(' && l.peek(2) == '(':
		l.pos += 3
		l.skipBalanced('(', ')', 2)
	case n == '(':
		l.pos += 2
		inner := l.skipBalanced('(', ')', 1)
		l.parseNested(inner)
	case n == '{':
		l.pos += 2
		l.skipBalanced('{', '}', 1)
	case isNameByte(n, true):
		l.pos++
		for l.pos < len(l.src) && isNameByte(l.src[l.pos], false) {
			l.pos++
		}
	case n >= '0' && n <= '9' || strings.IndexByte("@*#?$!-", n) >= 0:
		l.pos += 2
	default:
		b.WriteByte('$')
		l.pos++
		return false
	}
	b.WriteString(l.src[start:l.pos])
	return true
}

// skipBalanced moves past the text up to the closing character that
// brings depth (the number of open characters already read) to zero,
// skipping quoted text, and returns the text inside.
func (l *lexer) skipBalanced(open, close byte, depth int) string {
	start := l.pos
	outer := l.skipping
	l.skipping = true
	defer func() { l.skipping = outer }()
	// The here-documents opened on the current line, whose bodies (which
	// may hold any character) start after it.
	type doc struct {
		delim    string
		stripTab bool
	}
	var docs []doc
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		switch c {
		case '\\':
			l.pos += 2
			continue
		case '\n':
			l.pos++
			for _, d := range docs {
				l.heredoc(d.delim, d.stripTab)
			}
			docs = docs[:0]
			continue
		case '#':
			if l.pos == start || strings.IndexByte(" \t\n;&|(", l.src[l.pos-1]) >= 0 {
				for l.pos < len(l.src) && l.src[l.pos] != '\n' {
					l.pos++
				}
				continue
			}
		case '<':
			rest := l.src[l.pos:]
			if strings.HasPrefix(rest, "<<") && !strings.HasPrefix(rest, "<<<") {
				d := doc{stripTab: strings.HasPrefix(rest, "<<-")}
				l.pos += 2
				if d.stripTab {
					l.pos++
				}
				for l.pos < len(l.src) && (l.src[l.pos] == ' ' || l.src[l.pos] == '\t') {
					l.pos++
				}
				if l.pos < len(l.src) && !isMeta(l.src[l.pos]) {
					d.delim = l.word().text
					docs = append(docs, d)
				}
				continue
			}
		case '\'':
			if end := strings.IndexByte(l.src[l.pos+1:], '\''); end >= 0 {
				l.pos += end + 2
				continue
			}
		case '"':
			l.pos++
			var sink strings.Builder
			l.doubleQuoted(&sink)
			continue
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				inner := l.src[start:l.pos]
				l.pos++
				return inner
			}
		}
		l.pos++
	}
	l.pos = min(l.pos, len(l.src))
	return l.src[start:l.pos]
}

// backquote reads a `…` command substitution, parses its script into
// nested and keeps it as written in b.
func (l *lexer) backquote(b *strings.Builder) {
	start := l.pos
	l.pos++
	var inner strings.Builder
	for l.pos < len(l.src) && l.src[l.pos] != '`' {
		if l.src[l.pos] == '\\' && l.pos+1 < len(l.src) && strings.IndexByte("$`\\", l.src[l.pos+1]) >= 0 {
			inner.WriteByte(l.src[l.pos+1])
			l.pos += 2
			continue
		}
		inner.WriteByte(l.src[l.pos])
		l.pos++
	}
	l.pos = min(l.pos+1, len(l.src))
	l.parseNested(inner.String())
	b.WriteString(l.src[start:l.pos])
}

// processSubstitution reads <(…) or >(…), parses its script into nested
// and keeps it as written in b.
func (l *lexer) processSubstitution(b *strings.Builder) {
	start := l.pos
	l.pos += 2
	inner := l.skipBalanced('(', ')', 1)
	l.parseNested(inner)
	b.WriteString(l.src[start:l.pos])
}

// parseNested adds the commands of a substitution's script to nested,
// unless the substitution lies inside one being skipped.
func (l *lexer) parseNested(script string) {
	if !l.skipping && l.depth < maxDepth {
		l.nested = append(l.nested, parse(script, l.depth+1, l.scanned)...)
	}
}

// ansiC reads the rest of a $'…' string (after its opening quote) with
// bash's escapes applied.
func (l *lexer) ansiC(b *strings.Builder) {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == '\'' {
			l.pos++
			return
		}
		if c != '\\' || l.pos+1 >= len(l.src) {
			b.WriteByte(c)
			l.pos++
			continue
		}
		l.pos++
		e := l.src[l.pos]
		l.pos++
		switch e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(e)
		case 'x':
			b.WriteString(l.numeric(16, 2, `\x`))
		case 'u':
			b.WriteString(l.numeric(16, 4, `\u`))
		case 'U':
			b.WriteString(l.numeric(16, 8, `\U`))
		case 'c':
			if l.pos < len(l.src) {
				b.WriteByte(l.src[l.pos] & 0x1f)
				l.pos++
			}
		default:
			if e >= '0' && e <= '7' {
				l.pos--
				b.WriteString(l.numeric(8, 3, ""))
				continue
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
}

// numeric reads up to max digits of base after the escape (\x, \u, \U,
// or "" for an octal one) and returns what they write: a byte, or the
// UTF-8 of a code point for \u and \U; the escape itself when no digit
// follows it.
func (l *lexer) numeric(base, max int, escape string) string {
	end := l.pos
	for end < len(l.src) && end-l.pos < max && isDigitOf(l.src[end], base) {
		end++
	}
	if end == l.pos {
		return escape
	}
	n, _ := strconv.ParseUint(l.src[l.pos:end], base, 32)
	l.pos = end
	if escape == `\u` || escape == `\U` {
		return string(utf8.AppendRune(nil, rune(n)))
	}
	return string([]byte{byte(n)})
}

func isDigitOf(c byte, base int) bool {
	switch {
	case c >= '0' && c <= '7':
		return true
	case c == '8' || c == '9':
		return base >= 10
	case c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		return base == 16
	}
	return false
}

// heredoc reads a here-document's body, from the current position (the
// start of the line after its redirection) to the line that is delim
// (after leading tabs when stripTab), which it consumes.
func (l *lexer) heredoc(delim string, stripTab bool) string {
	var body strings.Builder
	for l.pos < len(l.src) {
		end := strings.IndexByte(l.src[l.pos:], '\n')
		line := l.src[l.pos:]
		next := len(l.src)
		if end >= 0 {
			line = l.src[l.pos : l.pos+end]
			next = l.pos + end + 1
		}
		l.pos = next
		if stripTab {
			line = strings.TrimLeft(line, "\t")
		}
		if line == delim {
			break
		}
		body.WriteString(line)
		body.WriteByte('\n')
	}
	return body.String()
}
