package report

import (
	"cmp"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/rules"
)

// ordered returns the result's findings in the order every format prints
// them: as given (by path, line, rule and commit), and within each run of
// findings that share all four, by their messages in natural order, so
// that "entry 2" comes before "entry 10". The result is not modified.
func ordered(r *Result) []rules.Finding {
	out := slices.Clone(r.Findings)
	for start := 0; start < len(out); {
		end := start + 1
		for end < len(out) && samePlace(out[start], out[end]) {
			end++
		}
		slices.SortStableFunc(out[start:end], func(a, b rules.Finding) int {
			return naturalCompare(a.Message, b.Message)
		})
		start = end
	}
	return out
}

// samePlace reports whether two findings differ at most in their message
// (and severity).
func samePlace(a, b rules.Finding) bool {
	return a.Path == b.Path && a.Line == b.Line && a.Rule == b.Rule && a.Commit == b.Commit
}

// naturalCompare orders strings as people read them: runs of ASCII digits
// compare by their value, everything else byte by byte. Strings that only
// differ in leading zeros ("07" and "7") fall back to byte order, so the
// order is total and the output deterministic.
func naturalCompare(a, b string) int {
	x, y := a, b
	for x != "" && y != "" {
		cx, cy := chunk(x), chunk(y)
		x, y = x[len(cx):], y[len(cy):]
		if isDigit(cx[0]) && isDigit(cy[0]) {
			nx, ny := strings.TrimLeft(cx, "0"), strings.TrimLeft(cy, "0")
			if c := cmp.Or(cmp.Compare(len(nx), len(ny)), strings.Compare(nx, ny)); c != 0 {
				return c
			}
			continue
		}
		if c := strings.Compare(cx, cy); c != 0 {
			return c
		}
	}
	return cmp.Or(cmp.Compare(len(x), len(y)), strings.Compare(a, b))
}

// chunk returns the leading run of digits, or of non-digits, of a
// non-empty string.
func chunk(s string) string {
	digits := isDigit(s[0])
	i := 1
	for i < len(s) && isDigit(s[i]) == digits {
		i++
	}
	return s[:i]
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
