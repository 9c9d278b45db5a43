package secrets

import (
	"strings"
	"testing"
)

// FuzzCutText holds cutText to its promise: each line is the text of the
// original at its origin, ends before a cut point, and maps back there.
func FuzzCutText(f *testing.F) {
	for _, s := range []string{".small/" + fakeGitHub + ".yml", "a.b/c:d", "(x|y(", "é…ü", "=.=", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		c := cutText(text)
		if len(c.starts) != len(c.origins) {
			t.Fatalf("%d starts, %d origins", len(c.starts), len(c.origins))
		}
		for i, start := range c.starts {
			end := len(c.text) - len(valueSeparator)
			if i+1 < len(c.starts) {
				end = c.starts[i+1] - len(valueSeparator)
			}
			line := c.text[start:end]
			o := c.origins[i]
			if o+len(line) > len(text) || text[o:o+len(line)] != line {
				t.Fatalf("line %q is not the text at %d", line, o)
			}
			if next := o + len(line); next >= len(text) || !cutPoint(text[next-1], text[next]) {
				t.Fatalf("line %q does not end before a cut point", line)
			}
			if strings.ContainsAny(line, " \t\n\"'`") {
				t.Fatalf("line %q holds a word break", line)
			}
			back := c.origin([]span{{start: start, end: end}})
			if len(back) != 1 || back[0].start != o || back[0].end != o+len(line) {
				t.Fatalf("line %q maps back to %+v", line, back)
			}
		}
	})
}

// FuzzRedact: redaction never fails, and never leaves a known secret.
func FuzzRedact(f *testing.F) {
	for _, s := range []string{"token " + fakeGitHub, ".small/" + fakeStripe + ".yml", "x", "(" + fakeSlack + "(", "\"" + fakeGitHub[:14] + "…\"", "…"} {
		f.Add(s)
	}
	s := New(Options{})
	s.Remember(fakeAWSSecret)
	f.Fuzz(func(t *testing.T, text string) {
		got := s.Redact(text + " " + fakeAWSSecret)
		if strings.Contains(got, fakeAWSSecret[:pieceLen]) {
			t.Fatalf("%q holds the remembered secret", got)
		}
	})
}
