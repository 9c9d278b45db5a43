package rules

import (
	"fmt"
	"strconv"
)

// maxEcho bounds how many characters of a value from a file or a commit a
// message may show. Messages leave the process through an output boundary
// that redacts secrets, but a rule should never need more than a short
// prefix to say what it means.
const maxEcho = 24

// Quote renders a string from a file or a commit for a message: quoted,
// with control characters escaped, and cut to maxEcho characters.
func Quote(s string) string {
	prefix, cut := truncate(s)
	if cut {
		return strconv.Quote(prefix) + "…"
	}
	return strconv.Quote(s)
}

// Cut renders a name from a file or a commit for a message, unquoted: cut
// to maxEcho characters, control characters escaped.
func Cut(s string) string {
	prefix, cut := truncate(s)
	q := strconv.Quote(prefix)
	q = q[1 : len(q)-1]
	if cut {
		return q + "…"
	}
	return q
}

// Show renders a decoded value for a message: strings through Quote,
// numbers and booleans as Go prints them (cut to maxEcho characters),
// collections by kind only.
func Show(v any) string {
	switch v := v.(type) {
	case string:
		return Quote(v)
	case nil:
		return "null"
	case map[string]any:
		return "a mapping"
	case []any:
		return "a sequence"
	}
	s := fmt.Sprint(v)
	if prefix, cut := truncate(s); cut {
		return prefix + "…"
	}
	return s
}

// truncate returns the first maxEcho characters of s, and whether s was
// longer.
func truncate(s string) (string, bool) {
	n := 0
	for i := range s {
		if n == maxEcho {
			return s[:i], true
		}
		n++
	}
	return s, false
}
