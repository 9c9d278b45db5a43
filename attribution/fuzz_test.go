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
