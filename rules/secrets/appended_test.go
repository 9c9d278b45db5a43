package secrets

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// TestAppendedScalarsAreThoseOfTheWholeFile: the scalars of entries an
// append adds, decoded alone, are exactly the scalars of the whole new
// version that lie on the added lines, with the same lines, keys and
// verbatim marks, whatever the style they are written in (and each the
// same string as the same scalar, counted from where it stands).
func TestAppendedScalarsAreThoseOfTheWholeFile(t *testing.T) {
	styles := []string{
		"      evidence: plain words\n",
		`      command: "double \x41 escaped \u00e9"` + "\n",
		`      link: 'single ''quoted'''` + "\n",
		"      notes: |\n        block line one\n        block line two\n",
		"      test: >-\n        folded\n        text\n\n        after a blank\n",
		"      verification:\n        command: go test\n        output: ok\n",
		"      tags:\n        - a\n        - \"b\\tc\"\n",
	}
	rng := rand.New(rand.NewSource(9))
	entry := func(i int) string {
		var b strings.Builder
		fmt.Fprintf(&b, "    - task_id: task-%d\n", i)
		for _, k := range rng.Perm(len(styles))[:1+rng.Intn(3)] {
			b.WriteString(styles[k])
		}
		return b.String()
	}
	old := "small_version: \"1.0.0\"\nowner: agent\nentries:\n"
	for i := range 5 {
		old += entry(i)
	}
	for round := 0; round < 40; round++ {
		tail := ""
		for i := range 1 + rng.Intn(3) {
			tail += entry(100*round + i)
		}
		now := old + tail
		app := yamldoc.ProveAppend(yamldoc.FindSequenceEnd([]byte(old), "entries"), []byte(old), []byte(now))
		if app == nil {
			t.Fatalf("round %d: the append is not proved:\n%s", round, tail)
		}
		doc, err := yamldoc.Decode([]byte(now))
		if err != nil {
			t.Fatal(err)
		}
		oldLines := strings.Count(old, "\n")
		var want []scalar
		for _, s := range relative(walkScalars(doc, []byte(now), 0)) {
			if s.end > oldLines {
				want = append(want, s)
			}
		}
		if got := relative(appendedScalars(app, []byte(tail))); !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d:\ngot  %+v\nwant %+v\ntail:\n%s", round, got, want, tail)
		}
		old = now
	}
}

// relative counts each scalar's same from its own index: scalars decoded
// alone are numbered from their first.
func relative(list []scalar) []scalar {
	out := make([]scalar, len(list))
	for i, s := range list {
		s.same -= i
		out[i] = s
	}
	return out
}
