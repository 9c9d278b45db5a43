package secrets

import "strings"

// plainLine reports whether a YAML line decodes to its own text: blank or
// a comment, or sequence dashes and a "key: value" pair or a value, where
// the key and the value are plain scalars or quoted ones closed on the
// line, with no escape (no backslash), no alias and no block scalar. Any
// other line may hide a value that only decoding shows: an escape, a
// scalar folded over several lines, a block scalar's header or body, a
// flow collection spread over lines, an alias that brings a value under
// a new key.
func plainLine(line string) bool {
	s := strings.TrimSpace(line)
	if strings.ContainsRune(s, '\\') {
		return false
	}
	item := false
	for s == "-" || strings.HasPrefix(s, "- ") {
		s, item = strings.TrimSpace(s[1:]), true
	}
	if s == "" || s[0] == '#' || s == "---" || s == "..." {
		return true
	}
	key, value, pair := splitPair(s)
	if !pair {
		// A bare value on its own line continues a scalar or a flow
		// collection, unless it is a sequence item.
		return item && plainValue(s)
	}
	if !plainValue(key) {
		return false
	}
	return value == "" || value[0] == '#' || plainValue(value)
}

// splitPair splits "key: value" (or "key:") at the colon that ends the
// key; a quoted key may hold colons.
func splitPair(s string) (key, value string, ok bool) {
	from := 0
	if s[0] == '"' || s[0] == '\'' {
		end := closingQuote(s)
		if end < 0 {
			return "", "", false
		}
		from = end + 1
	}
	for i := from; i < len(s); i++ {
		if s[i] == ':' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t') {
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:]), true
		}
		if s[i] == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t') {
			break
		}
	}
	return "", "", false
}

// plainValue reports whether a scalar written on one line decodes to its
// own text: not an alias, a block scalar header, a quoted scalar left
// open, or a flow collection left open.
func plainValue(v string) bool {
	for _, prefix := range []string{"&", "!"} {
		// An anchor or a tag, then the value.
		if strings.HasPrefix(v, prefix) {
			_, rest, _ := strings.Cut(v, " ")
			v = strings.TrimSpace(rest)
		}
	}
	if v == "" {
		return true
	}
	switch v[0] {
	case '*', '|', '>', '?':
		return false
	case '"', '\'':
		return closingQuote(v) > 0
	case '[', '{':
		return balanced(v)
	}
	return true
}

// closingQuote returns the offset of the quote that closes the quoted
// scalar s starts with (a single quote is escaped by doubling), or -1.
func closingQuote(s string) int {
	q := s[0]
	for i := 1; i < len(s); i++ {
		if s[i] != q {
			continue
		}
		if q == '\'' && i+1 < len(s) && s[i+1] == '\'' {
			i++
			continue
		}
		return i
	}
	return -1
}

// balanced reports whether a flow collection closes on its line, its
// quoted scalars included.
func balanced(s string) bool {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case '"', '\'':
			end := closingQuote(s[i:])
			if end < 0 {
				return false
			}
			i += end
		case '*':
			if i > 0 && strings.ContainsRune("[{, ", rune(s[i-1])) {
				return false
			}
		}
	}
	return depth == 0
}
