package attribution

import (
	"strings"
	"testing"
)

func FuzzParseTrailers(f *testing.F) {
	for _, s := range []string{
		"subject\n\nbody\n\nCo-authored-by: A <a@b.c>\n",
		"subject\n\nKey: v\n continued\nSigned-off-by: x\n",
		"Co-authored-by: only subject\n",
		"s\n\nb\n# comment\n" + scissorsLine + "diff\n",
		"s\n\n---\nKey: v\n", "", "\n\n\n",
		"s\n\nb\n\nA: b\n\nConflicts:\n\tx.go\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		for _, tr := range ParseTrailers(msg) {
			if tr.Key == "" || separator(tr.Key+":") != len(tr.Key) {
				t.Fatalf("bad trailer key %q from %q", tr.Key, msg)
			}
			if strings.Contains(tr.Value, "\n") || tr.Value != trimSpace(tr.Value) {
				t.Fatalf("value %q of %q is not unfolded and trimmed", tr.Value, msg)
			}
		}
	})
}

// FuzzCommitted: cleaning a message up never panics, and cleaning up what
// it gives changes nothing more (git's cleanup is idempotent) when the
// comment character is fixed.
func FuzzCommitted(f *testing.F) {
	for _, s := range []string{
		"Subject\n\nSmall-Rewrite: typo\n\n; Please enter\n;\n",
		"# Heading\n\nSmall-Actor: agent\n; ------------------------ >8 ------------------------\ndiff\n",
		"  \n\nSubject  \n\n\n\nBody\t\n\n", "", "\r\n\r\n", "#\n;\n@\n!\n$\n%\n^\n&\n|\n:\n",
	} {
		f.Add(s, "default", true, ";")
		f.Add(s, "strip", false, "auto")
	}
	f.Fuzz(func(t *testing.T, file, mode string, editor bool, comment string) {
		c := Cleanup{Mode: mode, Editor: editor, CommentChar: comment}
		once, err := c.Committed(file)
		if err != nil || strings.EqualFold(comment, "auto") || comment == "" {
			return
		}
		twice, err := c.Committed(once)
		if err != nil || twice != once {
			t.Fatalf("%+v: cleaning %q up again gave %q, want %q (%v)", c, file, twice, once, err)
		}
	})
}
