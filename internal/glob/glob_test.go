package glob

import "testing"

func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, s   string
		runes, bytes bool
	}{
		{"*[bot]", "renovate[bot]", true, true},
		{"a?c", "abc", true, true},
		{"a?c", "aéc", true, false}, // é is one rune, two bytes
		{"a*", "", false, false},
		{"*", "", true, true},
		{"a*b*c", "axxbyyc", true, true},
		{"a*b", "axxbyyc", false, false},
	} {
		if got := Match([]rune(c.pattern), []rune(c.s)); got != c.runes {
			t.Errorf("runes: Match(%q, %q) = %v", c.pattern, c.s, got)
		}
		if got := Match([]byte(c.pattern), []byte(c.s)); got != c.bytes {
			t.Errorf("bytes: Match(%q, %q) = %v", c.pattern, c.s, got)
		}
	}
}
