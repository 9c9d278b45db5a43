package small

import (
	"testing"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
	"github.com/small-hook/small-hook/yamldoc"
)

// FuzzAppendOnly checks the progress comparison on arbitrary old and new
// files: it never panics, and whenever the byte-level proof accepts an
// append, the full comparison of parsed values agrees that no entry was
// changed, removed or reordered.
func FuzzAppendOnly(f *testing.F) {
	old := "small_version: \"1.0.0\"\nowner: agent\nentries:\n    - task_id: a\n      evidence: x\n      timestamp: \"2026-01-01T00:00:00.1Z\"\n"
	f.Add(old, old+"    - task_id: b\n      evidence: y\n      timestamp: \"2026-01-01T00:00:00.2Z\"\n")
	f.Add(old, old+"owner: human\n")
	f.Add(old, "entries: []\n")
	f.Add(old, old+"    - &a task_id: b\n")
	f.Add("entries:\n- a\n", "entries:\n- a\n- b\n")
	f.Fuzz(func(t *testing.T, oldText, newText string) {
		base := rulestest.Snapshot{rootProgress: oldText}
		after := rulestest.Snapshot{rootProgress: newText}
		unit := rulestest.Staged(base, after)
		if _, err := rules.Check([]changes.Unit{unit}, rules.Options{Rules: Rules(), Config: config.Default()}); err != nil {
			t.Fatalf("check failed: %v", err)
		}
		if yamldoc.ProveAppend(yamldoc.FindSequenceEnd([]byte(oldText), "entries"), []byte(oldText), []byte(newText)) == nil {
			return
		}
		oldFile, newFile := decodeText(oldText), decodeText(newText)
		if oldFile.err != nil {
			t.Fatalf("the fast path accepted an append to a file that does not parse: %v", oldFile.err)
		}
		if newFile.err != nil {
			t.Fatalf("the fast path accepted an append that does not parse: %v", newFile.err)
		}
		olds, news := entriesOf(oldFile), entriesOf(newFile)
		if len(news) < len(olds) {
			t.Fatalf("the fast path accepted a shorter list")
		}
		for i := range olds {
			if !yamldoc.Equal(olds[i], news[i]) {
				t.Fatalf("the fast path accepted a change to entry %d", i)
			}
		}
	})
}

// decodeText decodes a canonical file's text the way the rules do.
func decodeText(text string) *parsed {
	doc, err := yamldoc.Decode([]byte(text))
	return parsedFrom(rulestest.Blob(text), doc, err)
}
