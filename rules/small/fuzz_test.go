package small

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
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

// FuzzMergedAppends holds the fast view of a merge of two appends
// (mergedAppendsView) to the full comparison: whenever the fast view is
// taken, the decoded result aligned with the base and both parents adds no
// entry, loses none (checkMerge reports nothing) and has the same
// junctions, at the same entries.
func FuzzMergedAppends(f *testing.F) {
	base := "small_version: \"1.0.0\"\nowner: agent\nentries:\n    - task_id: a\n      evidence: x\n      timestamp: \"2026-01-01T00:00:00.1Z\"\n"
	entry := func(task, ts string) string {
		return "    - task_id: " + task + "\n      evidence: y\n      timestamp: \"2026-01-01T00:00:0" + ts + "Z\"\n"
	}
	f.Add(base, entry("b", "1.2"), entry("c", "1.3"))
	f.Add(base, entry("b", "1.2")+entry("d", "1.4"), entry("c", "1.3"))
	f.Add(base, entry("b", "1.2"), entry("b", "1.2"))
	f.Add(base, entry("b", "1.2"), entry("b", "1.200"))
	f.Add(base, entry("b", "2.0"), entry("c", "1.0"))
	f.Add(base, entry("b", "1.2"), entry("a", "0.1"))
	f.Add(base, entry("b", "1.2"), "    - task_id: c\n")
	f.Add("entries:\n- a\n", "- b\n", "- c\n")
	f.Add("entries:\n- a\n", "- b\n", "- b\n")
	f.Fuzz(func(t *testing.T, baseText, ours, theirs string) {
		first, second := baseText+ours, baseText+theirs
		result := first + theirs
		u := changes.Unit{Mode: changes.ModeRange,
			Commit: &changes.Commit{Hash: strings.Repeat("a", 40), Parents: []string{strings.Repeat("b", 40), strings.Repeat("c", 40)}},
			Changes: []changes.Change{{Path: rootProgress, Old: rulestest.Blob(first), New: rulestest.Blob(result),
				Merge: &changes.Merge{Base: rulestest.Blob(baseText), Parents: []*changes.Blob{rulestest.Blob(first), rulestest.Blob(second)}}}},
			Files: rulestest.Snapshot{rootProgress: result}}
		var fast, full *progressView
		probe := &rules.Rule{ID: "test/merge", Severity: rules.Error, Run: func(pass *rules.Pass) error {
			ch := &pass.Unit.Changes[0]
			if fast = mergedAppendsView(pass, ch); fast == nil {
				return nil
			}
			full = fullView(pass, ch)
			newFile := decode(pass, ch.New)
			if newFile.err != nil {
				t.Fatalf("the fast view took a result that does not parse: %v", newFile.err)
			}
			r := newRewrites(pass, ch.Path)
			checkMerge(r, ch, newFile)
			r.report()
			return nil
		}}
		found, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: []*rules.Rule{probe}, Config: config.Default()})
		if err != nil {
			t.Fatal(err)
		}
		if fast == nil {
			return
		}
		for _, x := range found {
			t.Errorf("the full comparison reports: %s", x.Message)
		}
		if len(full.added) != 0 {
			t.Errorf("the full comparison finds %d entries no parent holds", len(full.added))
		}
		if len(full.junctions) != len(fast.junctions) {
			t.Fatalf("junctions: full %d, fast %d", len(full.junctions), len(fast.junctions))
		}
		for i, j := range full.junctions {
			k := fast.junctions[i]
			if j.cur.index != k.cur.index || j.prev.index != k.prev.index ||
				!yamldoc.Equal(j.cur.value, k.cur.value) || !yamldoc.Equal(j.prev.value, k.prev.value) {
				t.Errorf("junction %d: full at %d, fast at %d", i, j.cur.index, k.cur.index)
			}
			if j.cur.line("timestamp") != k.cur.line("timestamp") {
				t.Errorf("junction %d: full line %d, fast line %d", i, j.cur.line("timestamp"), k.cur.line("timestamp"))
			}
		}
	})
}
