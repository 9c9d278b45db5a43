package ledger

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/config"
)

// TestEntriesKeepTheCommitThatRecordedThem walks a history that appends,
// re-serialises, rewrites an entry in place, inserts one before older
// entries, and breaks the file for a commit: each entry keeps the first
// commit whose version holds it at its position, as the append-only rule
// aligns versions.
func TestEntriesKeepTheCommitThatRecordedThem(t *testing.T) {
	r := newRepo(t)
	r.write(progressPath, progressHeader+entry("a", hours(1))+entry("b", hours(2)))
	r.commit("add the workspace", hours(3))
	r.write(progressPath, r.read(progressPath)+entry("c", hours(4)))
	r.commit("append c", hours(5))
	r.write(progressPath, strings.ReplaceAll(r.read(progressPath), "\n    ", "\n  "))
	r.commit("reserialise with two spaces", hours(6))
	r.write(progressPath, strings.Replace(r.read(progressPath), "task_id: b", "task_id: meta/historical/b", 1))
	r.commit("rewrite b's task", hours(7))
	text := r.read(progressPath)
	at := strings.Index(text, "  - evidence: worked on c")
	r.write(progressPath, text[:at]+strings.ReplaceAll(entry("x", hours(4)), "\n    ", "\n  ")[2:]+text[at:])
	r.commit("insert x before c", hours(8))
	good := r.read(progressPath)
	r.write(progressPath, good+"  - : [\n")
	r.commit("broken yaml", hours(9))
	r.write(progressPath, good+strings.ReplaceAll(entry("d", hours(10)), "\n    ", "\n  ")[2:])
	r.commit("fixed and appended d", hours(11))

	l := build(t, r.dir, config.Default().Ledger)
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
	r := newRepo(t)
	other := "examples/x/.small/progress.small.yml"
	r.write(progressPath, progressHeader+entry("a", hours(1)))
	r.write(other, progressHeader+entry("x1", hours(1)))
	r.commit("base", hours(2))
	r.write(progressPath, r.read(progressPath)+entry("a2", hours(3)))
	fork := r.commit("before the fork", hours(4))
	r.write(progressPath, r.read(progressPath)+entry("m1", hours(5)))
	r.commit("main", hours(6))
	mainText := r.read(progressPath)
	r.git(nil, "checkout", "-q", "-b", "side", fork)
	r.write(progressPath, r.read(progressPath)+entry("s1", hours(7)))
	r.commit("side", hours(8))
	r.git(nil, "rm", "-q", other)
	r.commit("dropped x", hours(9))
	r.write("examples/y/.small/progress.small.yml", progressHeader+entry("y1", hours(9)))
	r.commit("new y", hours(10))
	r.git(nil, "checkout", "-q", "main")
	cmd := []string{"merge", "-q", "--no-edit", "side"}
	if _, err := tryGit(r, cmd...); err == nil {
		t.Fatal("the merge did not conflict")
	}
	r.write(progressPath, mainText+entry("s1", hours(7))+entry("e", hours(11)))
	r.commit("merged, with an entry of its own", hours(12))

	l := build(t, r.dir, config.Default().Ledger)
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

// tryGit runs git and returns its error instead of failing the test.
func tryGit(r *repo, args ...string) (string, error) {
	r.t.Helper()
	out, err := runGit(r.dir, args...)
	return out, err
}

// TestShallowCloneMarksEntriesBeforeItsHistory: in a clone of depth 2,
// the entries the boundary commit already held are marked as recorded
// before the history the clone holds, at that commit, and never
// attributed to it; later entries are attributed as usual.
func TestShallowCloneMarksEntriesBeforeItsHistory(t *testing.T) {
	r := newRepo(t)
	r.write(progressPath, progressHeader+entry("a", hours(1)))
	r.commit("first", hours(2))
	r.write(progressPath, r.read(progressPath)+entry("b", hours(3), "      commit: "+r.git(nil, "rev-parse", "HEAD")[:10]+"\n"))
	r.commit("second", hours(4))
	r.write(progressPath, r.read(progressPath)+entry("c", hours(5)))
	r.commit("third", hours(6))
	clone := filepath.Join(t.TempDir(), "c")
	r.git(nil, "clone", "-q", "--depth", "2", "file://"+r.dir, clone)
	c := &repo{t: t, dir: clone}
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
	full := build(t, r.dir, config.Default().Ledger)
	if got := recorders(t, r, full, progressPath); got != "a@first/with-file b@second/appended c@third/appended" || full.Shallow {
		t.Errorf("the full history: %s", got)
	}
}

// TestARecreatedFileStartsAnew: a file deleted and added again is a new
// file; its entries arrive with it.
func TestARecreatedFileStartsAnew(t *testing.T) {
	r := newRepo(t)
	text := progressHeader + entry("a", hours(1))
	r.write(progressPath, text)
	r.commit("first", hours(2))
	r.git(nil, "rm", "-q", progressPath)
	r.commit("deleted", hours(3))
	r.write(progressPath, text)
	r.commit("recreated", hours(4))
	if got := recorders(t, r, build(t, r.dir, config.Default().Ledger), progressPath); got != "a@recreated/with-file" {
		t.Errorf("got %s", got)
	}
}
