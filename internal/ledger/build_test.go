package ledger

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/gittest"
)

// TestEntriesKeepTheCommitThatRecordedThem walks a history that appends,
// re-serialises, rewrites an entry in place, inserts one before older
// entries, and breaks the file for a commit: each entry keeps the first
// commit whose version holds it at its position, as the append-only rule
// aligns versions.
func TestEntriesKeepTheCommitThatRecordedThem(t *testing.T) {
	r := gittest.New(t)
	r.Write(progressPath, progressHeader+entry("a", hours(1))+entry("b", hours(2)))
	r.CommitAt("add the workspace", hours(3))
	r.Write(progressPath, r.Read(progressPath)+entry("c", hours(4)))
	r.CommitAt("append c", hours(5))
	r.Write(progressPath, strings.ReplaceAll(r.Read(progressPath), "\n    ", "\n  "))
	r.CommitAt("reserialise with two spaces", hours(6))
	r.Write(progressPath, strings.Replace(r.Read(progressPath), "task_id: b", "task_id: meta/historical/b", 1))
	r.CommitAt("rewrite b's task", hours(7))
	text := r.Read(progressPath)
	at := strings.Index(text, "  - evidence: worked on c")
	r.Write(progressPath, text[:at]+strings.ReplaceAll(entry("x", hours(4)), "\n    ", "\n  ")[2:]+text[at:])
	r.CommitAt("insert x before c", hours(8))
	good := r.Read(progressPath)
	r.Write(progressPath, good+"  - : [\n")
	r.CommitAt("broken yaml", hours(9))
	r.Write(progressPath, good+strings.ReplaceAll(entry("d", hours(10)), "\n    ", "\n  ")[2:])
	r.CommitAt("fixed and appended d", hours(11))

	l := build(t, r.Dir, config.Default().Ledger)
	want := "a@add/with-file meta/historical/b@rewrite/inserted x@insert/inserted c@append/appended d@fixed/appended"
	if got := recorders(t, r, l, progressPath); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if l.Shallow || l.Commits != 7 || l.Entries() != 5 {
		t.Errorf("shallow %v, %d commits, %d entries", l.Shallow, l.Commits, l.Entries())
	}
}

// TestMergesTakeEachSidesRecorders merges a branch: entries keep the
// commits of the side that recorded them, a file one side added or
// deleted while the other left it alone is taken from that side, and an
// entry no parent holds is the merge's own. The two sides append to the
// same version of the file, which neither may change for the other.
func TestMergesTakeEachSidesRecorders(t *testing.T) {
	r := gittest.New(t)
	other := "examples/x/.small/progress.small.yml"
	r.Write(progressPath, progressHeader+entry("a", hours(1)))
	r.Write(other, progressHeader+entry("x1", hours(1)))
	r.CommitAt("base", hours(2))
	r.Write(progressPath, r.Read(progressPath)+entry("a2", hours(3)))
	fork := r.CommitAt("before the fork", hours(4))
	r.Write(progressPath, r.Read(progressPath)+entry("m1", hours(5)))
	r.CommitAt("main", hours(6))
	mainText := r.Read(progressPath)
	r.Git("checkout", "-q", "-b", "side", fork)
	r.Write(progressPath, r.Read(progressPath)+entry("s1", hours(7)))
	r.CommitAt("side", hours(8))
	r.Git("rm", "-q", other)
	r.CommitAt("dropped x", hours(9))
	r.Write("examples/y/.small/progress.small.yml", progressHeader+entry("y1", hours(9)))
	r.CommitAt("new y", hours(10))
	r.Git("checkout", "-q", "main")
	cmd := []string{"merge", "-q", "--no-edit", "side"}
	if _, err := r.Try(cmd...); err == nil {
		t.Fatal("the merge did not conflict")
	}
	r.Write(progressPath, mainText+entry("s1", hours(7))+entry("e", hours(11)))
	r.CommitAt("merged, with an entry of its own", hours(12))

	l := build(t, r.Dir, config.Default().Ledger)
	want := "a@base/with-file a2@before/appended m1@main/appended s1@side/appended e@merged,/appended"
	if got := recorders(t, r, l, progressPath); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := recorders(t, r, l, "examples/y/.small/progress.small.yml"); got != "y1@new/with-file" {
		t.Errorf("the file the side added: %s", got)
	}
	for _, f := range l.Files {
		if f.Path == other {
			t.Errorf("%s, which the side deleted, is still in the ledger", other)
		}
	}
}

// TestShallowCloneMarksEntriesBeforeItsHistory: in a clone of depth 2,
// the entries the boundary commit already held are marked as recorded
// before the history the clone holds, at that commit, and never
// attributed to it; later entries are attributed as usual.
func TestShallowCloneMarksEntriesBeforeItsHistory(t *testing.T) {
	r := gittest.New(t)
	r.Write(progressPath, progressHeader+entry("a", hours(1)))
	r.CommitAt("first", hours(2))
	r.Write(progressPath, r.Read(progressPath)+entry("b", hours(3), "      commit: "+r.Git("rev-parse", "HEAD")[:10]+"\n"))
	r.CommitAt("second", hours(4))
	r.Write(progressPath, r.Read(progressPath)+entry("c", hours(5)))
	r.CommitAt("third", hours(6))
	clone := filepath.Join(t.TempDir(), "c")
	r.Git("clone", "-q", "--depth", "2", "file://"+r.Dir, clone)
	c := gittest.At(t, clone)
	l := build(t, clone, config.Default().Ledger)
	if got := recorders(t, c, l, progressPath); got != "a@second/before-history b@second/before-history c@third/appended" {
		t.Errorf("got %s", got)
	}
	if !l.Shallow || l.Files[0].Entries[1].Evidence[0].Status != Undecided {
		t.Errorf("shallow %v, evidence %+v", l.Shallow, l.Files[0].Entries[1].Evidence)
	}
	if v := l.Files[0].Entries[0].Commit; !v.Boundary || v.Verdict.Actor != "" {
		t.Errorf("the boundary commit was attributed: %+v", v)
	}
	full := build(t, r.Dir, config.Default().Ledger)
	if got := recorders(t, r, full, progressPath); got != "a@first/with-file b@second/appended c@third/appended" || full.Shallow {
		t.Errorf("the full history: %s", got)
	}
}

// TestARecreatedFileStartsAnew: a file deleted and added again is a new
// file; its entries arrive with it.
func TestARecreatedFileStartsAnew(t *testing.T) {
	r := gittest.New(t)
	text := progressHeader + entry("a", hours(1))
	r.Write(progressPath, text)
	r.CommitAt("first", hours(2))
	r.Git("rm", "-q", progressPath)
	r.CommitAt("deleted", hours(3))
	r.Write(progressPath, text)
	r.CommitAt("recreated", hours(4))
	if got := recorders(t, r, build(t, r.Dir, config.Default().Ledger), progressPath); got != "a@recreated/with-file" {
		t.Errorf("got %s", got)
	}
}
