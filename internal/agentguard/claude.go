package agentguard

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Replacement is one old_string → new_string replacement of an edit.
type Replacement struct {
	Old, New string
	// All replaces every occurrence (replace_all); otherwise Old must
	// occur once.
	All bool
}

// ClaudeEdit is Claude Code's Edit (one replacement) or MultiEdit (several,
// each applied to the result of the one before), computed as the tools
// compute it: Old is found as written or, failing that, with curly quotes
// read as straight ones (the file's own text is then replaced, and New
// takes the file's curly quotes); an empty Old creates a file that does
// not exist or is empty; a replacement with an empty New that does not
// end its Old with a line break removes the line break that follows it.
// The tools fail, writing nothing, when Old is not found, is found more
// than once without All, equals New, or (MultiEdit) lies inside an
// earlier replacement's New.
type ClaudeEdit struct {
	Edits []Replacement
	// Multi marks MultiEdit: a replacement that leaves the file as it was
	// fails it.
	Multi bool
}

// Apply applies the replacements to before.
func (e ClaudeEdit) Apply(before []byte) ([]byte, error) {
	if len(e.Edits) == 0 {
		return nil, failf("the call has no edits")
	}
	content, exists := before, before != nil
	var news []string
	for i, r := range e.Edits {
		name := "old_string"
		if e.Multi {
			name = "edits[" + strconv.Itoa(i) + "].old_string"
		}
		if r.Old == r.New {
			return nil, failf("No changes to make: %s and new_string are exactly the same", name)
		}
		if trimmed := strings.TrimRight(r.Old, "\n"); trimmed != "" {
			for _, n := range news {
				if strings.Contains(n, trimmed) {
					return nil, failf("Cannot edit file: %s is a substring of a new_string from a previous edit", name)
				}
			}
		}
		news = append(news, r.New)
		if r.Old == "" {
			if exists && len(bytes.TrimSpace(content)) > 0 {
				return nil, failf("Cannot create new file - file already exists (%s is empty)", name)
			}
			content, exists = []byte(r.New), true
			continue
		}
		if !exists {
			return nil, failf("File does not exist")
		}
		actual, at, ok := findActualString(content, r.Old)
		if !ok {
			return nil, failf("String to replace not found in file (%s)", name)
		}
		if !r.All && bytes.Contains(content[at+len(actual):], []byte(actual)) {
			return nil, failf("Found %d matches of the string to replace (%s), but replace_all is false", bytes.Count(content, []byte(actual)), name)
		}
		next := replace(content, actual, at, preserveQuoteStyle(r.Old, actual, r.New), r.All)
		if e.Multi && bytes.Equal(next, content) {
			return nil, failf("String not found in file. Failed to apply edit (%s)", name)
		}
		content = next
	}
	return content, nil
}

// replace replaces old, which first occurs in content at at, by new: that
// occurrence, or every one with all. An empty new also takes the line
// break that follows old, unless old ends with one.
func replace(content []byte, old string, at int, new string, all bool) []byte {
	if new == "" && !strings.HasSuffix(old, "\n") {
		if i := bytes.Index(content, []byte(old+"\n")); i >= 0 {
			old, at = old+"\n", i
		}
	}
	rest := content[at+len(old):]
	if all {
		rest = bytes.ReplaceAll(rest, []byte(old), []byte(new))
	}
	out := make([]byte, 0, at+len(new)+len(rest))
	return append(append(append(out, content[:at]...), new...), rest...)
}

// Curly quotes, which the Edit tool reads as straight ones when old_string
// is not found as written.
const (
	leftSingle  = '‘'
	rightSingle = '’'
	leftDouble  = '“'
	rightDouble = '”'
)

// straightQuotes is s with curly quotes read as straight ones, and the
// offset in s of every byte of the result (and of its end).
func straightQuotes(s string) (string, []int) {
	var b strings.Builder
	offsets := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case leftSingle, rightSingle:
			b.WriteByte('\'')
			offsets = append(offsets, i)
		case leftDouble, rightDouble:
			b.WriteByte('"')
			offsets = append(offsets, i)
		default:
			b.WriteString(s[i : i+size])
			for range size {
				offsets = append(offsets, i)
			}
		}
		i += size
	}
	return b.String(), append(offsets, len(s))
}

// findActualString returns the text of content that old stands for, and
// where it first occurs: old itself when content holds it, else the first
// text of content that equals old once curly quotes are read as straight
// in both.
func findActualString(content []byte, old string) (string, int, bool) {
	if i := bytes.Index(content, []byte(old)); i >= 0 {
		return old, i, true
	}
	c, offsets := straightQuotes(string(content))
	o, _ := straightQuotes(old)
	i := strings.Index(c, o)
	if i < 0 {
		return "", 0, false
	}
	return string(content[offsets[i]:offsets[i+len(o)]]), offsets[i], true
}

// preserveQuoteStyle returns new with its straight quotes written curly,
// as actual (the file's text that old stood for) writes them, when old
// was found only by reading curly quotes as straight: an opening quote
// after a space, a line break, an opening bracket or at the start, a
// closing one elsewhere; a single quote between two letters is an
// apostrophe.
func preserveQuoteStyle(old, actual, new string) string {
	if old == actual {
		return new
	}
	single := strings.ContainsAny(actual, string([]rune{leftSingle, rightSingle}))
	double := strings.ContainsAny(actual, string([]rune{leftDouble, rightDouble}))
	if !single && !double {
		return new
	}
	rs := []rune(new)
	out := make([]rune, len(rs))
	for i, r := range rs {
		out[i] = r
		opening := i == 0 || unicode.IsSpace(rs[i-1]) || strings.ContainsRune("([{", rs[i-1])
		switch {
		case r == '"' && double && opening:
			out[i] = leftDouble
		case r == '"' && double:
			out[i] = rightDouble
		case r == '\'' && single && i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]):
			out[i] = rightSingle
		case r == '\'' && single && opening:
			out[i] = leftSingle
		case r == '\'' && single:
			out[i] = rightSingle
		}
	}
	return string(out)
}
