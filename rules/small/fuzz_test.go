package small

import (
	"fmt"
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

// FuzzAlign holds the alignment through the index of entries (align) to
// the one that compares each old entry with every new one from where the
// last one matched: the same match for every old entry, on lists of
// entries that differ only in task and timestamp, written in the ways
// migrate, ties and YAML typing make them the same or not.
func FuzzAlign(f *testing.F) {
	f.Add([]byte{0x00, 0x11, 0x22}, []byte{0x00, 0x11, 0x22, 0x33})
	f.Add([]byte{0x05, 0x05, 0x05}, []byte{0x06, 0x07, 0x08})
	f.Add([]byte{0x01, 0x09, 0x02}, []byte{0x0a, 0x01, 0x02})
	f.Add([]byte{0x03, 0x13, 0x23}, []byte{0x04, 0x0b, 0x1c})
	f.Add([]byte{0x0d, 0x0e, 0x0f}, []byte{0x0f, 0x0e, 0x0d})
	f.Fuzz(func(t *testing.T, oldShape, curShape []byte) {
		if len(oldShape) > 40 || len(curShape) > 40 {
			return
		}
		old, cur := shapedEntries(t, oldShape), shapedEntries(t, curShape)
		got := align(old, cur)
		want := newHistory(old, cur)
		next := 0
		for i := range old {
			want.match[i] = want.scan(i, next)
			if want.match[i] >= 0 {
				next = want.match[i] + 1
			}
		}
		for i := range old {
			if got.match[i] != want.match[i] {
				t.Fatalf("old entry %d: at %d, comparing each: %d\nold %v\nnew %v", i, got.match[i], want.match[i], old, cur)
			}
		}
	})
}

// shapedEntries decodes a list of entries, one per byte: its low bits
// pick a task, its high bits a timestamp (instants that share, miss or
// follow each other by a nanosecond, written as migrate writes them, with
// an offset, unquoted, as a number, or missing).
func shapedEntries(t *testing.T, shape []byte) []any {
	stamps := []string{
		`"2027-01-01T00:00:00.000000000Z"`, `"2027-01-01T00:00:00.000000001Z"`, `"2027-01-01T00:00:00.000000002Z"`,
		`"2027-01-01T01:00:00+01:00"`, `2027-01-01T00:00:00Z`, `"2027-01-01T00:00:00Z"`, `"2027-01-01T00:00:01.5Z"`,
		`"2027-01-01T00:00:00.000000003Z"`, `7`, `"not a time"`, `"2027-01-01T00:00:00.000000000Z"`, ``,
		`"2027-01-01T00:00:01.500000000Z"`, `"2026-12-31T23:59:59.999999999Z"`, `2027-01-01T00:00:00.000000001Z`, `"2027-01-01T00:00:00.000000001Z"`,
	}
	var b strings.Builder
	b.WriteString("entries:\n")
	for _, c := range shape {
		fmt.Fprintf(&b, "  - task_id: t%d\n", c&3)
		if s := stamps[c>>4]; s != "" {
			fmt.Fprintf(&b, "    timestamp: %s\n", s)
		}
	}
	doc, err := yamldoc.Decode([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := doc.Value.(map[string]any)["entries"].([]any)
	return entries
}
