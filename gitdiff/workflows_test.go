package gitdiff

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gittest"
)

// mergeSummary renders a merge change as
// "path: new=… parents=…,… base=…" with - for absent versions.
func mergeSummary(list []changes.Change) string {
	text := func(b *changes.Blob) string {
		if b == nil {
			return "-"
		}
		return strings.Join(strings.Fields(string(b.Data)), " ")
	}
	var parts []string
	for _, c := range list {
		if c.Merge == nil {
			parts = append(parts, c.Path+": not a merge change")
			continue
		}
		var parents []string
		for _, p := range c.Merge.Parents {
			parents = append(parents, text(p))
		}
		parts = append(parts, fmt.Sprintf("%s: new=%s parents=%s base=%s old=%s", c.Path, text(c.New), strings.Join(parents, ","), text(c.Merge.Base), text(c.Old)))
	}
	return strings.Join(parts, "; ")
}

// TestStagedMergeIsBuiltLikeTheMergeCommit resolves real conflicts and
// compares the staged unit (MERGE_HEAD present) with the unit Range
// builds for the merge commit the resolution becomes.
func TestStagedMergeIsBuiltLikeTheMergeCommit(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/intent.small.yml", "a\n")
	r.Write(".small/plan.small.yml", "q\n")
	r.Write("artifacts/k.md", "k\n")
	r.Commit("base")
	r.Git("checkout", "-q", "-b", "side")
	r.Write(".small/intent.small.yml", "a\nside\n")
	r.Write("artifacts/k.md", "k\nside\n")
	r.Commit("side")
	r.Git("checkout", "-q", "main")
	r.Write(".small/intent.small.yml", "a\nmain\n")
	r.Write(".small/plan.small.yml", "q\nmain\n")
	r.Commit("main")
	if out, err := r.Try("merge", "-q", "side"); err == nil {
		t.Fatalf("the merge did not conflict: %s", out)
	}
	r.Write(".small/intent.small.yml", "a\nmain\nside\n")
	r.Git("add", "-A")

	staged, err := r.open().Staged(Scope{})
	if err != nil {
		t.Fatal(err)
	}
	want := ".small/intent.small.yml: new=a main side parents=a main,a side base=a old=a main"
	if got := mergeSummary(staged.Changes); got != want {
		t.Errorf("staged merge:\ngot  %s\nwant %s", got, want)
	}
	r.Git("commit", "-q", "--no-edit")
	units, err := rangeUnits(r.open(), "HEAD~1", "HEAD", Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if got := mergeSummary(units[len(units)-1].Changes); got != want {
		t.Errorf("merge commit:\ngot  %s\nwant %s", got, want)
	}
}

// TestStagedOctopusMerge: MERGE_HEAD lists every branch being merged.
func TestStagedOctopusMerge(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/intent.small.yml", "a\n")
	r.Commit("base")
	for _, b := range []string{"one", "two"} {
		r.Git("checkout", "-q", "-b", b, "main")
		r.Write(".small/"+b+".yml", b+"\n")
		r.Commit(b)
	}
	r.Git("checkout", "-q", "main")
	r.Write(".small/intent.small.yml", "a\nmain\n")
	r.Commit("main")
	r.Git("merge", "-q", "--no-commit", "one", "two")
	// The result drops what branch two added: the merge itself changes it.
	r.Git("rm", "-q", "--cached", ".small/two.yml")
	staged, err := r.open().Staged(Scope{})
	if err != nil {
		t.Fatal(err)
	}
	want := ".small/two.yml: new=- parents=-,-,two base=- old=-"
	if got := mergeSummary(staged.Changes); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestOctopusMergeWithAnOldParent: a merge of two branches and of an old
// commit of theirs, taking that commit's file, is not a file taken
// unchanged from a parent: the old commit is the merge base it shares with
// each branch, and both branches changed the file since. The change lists
// every merge base's version.
func TestOctopusMergeWithAnOldParent(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/plan.small.yml", "a\n")
	old := r.Commit("old")
	r.Write(".small/plan.small.yml", "a\nb\n")
	fork := r.Commit("b")
	var tips []string
	for _, b := range []string{"one", "two"} {
		r.Git("checkout", "-q", "-b", b, fork)
		r.Write(b+".txt", b+"\n")
		tips = append(tips, r.Commit(b))
	}
	merge := r.Git("commit-tree", old+"^{tree}", "-p", tips[0], "-p", tips[1], "-p", old, "-m", "octopus")
	units, err := rangeUnits(r.open(), fork, merge, Scope{})
	if err != nil {
		t.Fatal(err)
	}
	last := units[len(units)-1]
	want := ".small/plan.small.yml: new=a parents=a b,a b,a base=a b old=a b"
	if got := mergeSummary(last.Changes); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	var bases []string
	for _, b := range last.Changes[0].Merge.Bases {
		bases = append(bases, strings.Join(strings.Fields(string(b.Data)), " "))
	}
	if got := strings.Join(bases, ","); got != "a b,a" {
		t.Errorf("merge bases' versions %q, want \"a b,a\"", got)
	}
	// The same three parents with the result of the branches: the merge
	// took the file unchanged from them, and the old commit is behind both.
	kept := r.Git("commit-tree", tips[0]+"^{tree}", "-p", tips[0], "-p", tips[1], "-p", old, "-m", "octopus keeping b")
	units, err = rangeUnits(r.open(), fork, kept, Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if got := mergeSummary(units[len(units)-1].Changes); got != "" {
		t.Errorf("an octopus merge that takes the branches' file lists %s", got)
	}
}

func TestMergeHeadThatIsNotACommitID(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/intent.small.yml", "a\n")
	r.Commit("base")
	r.Write(".git/MERGE_HEAD", "not-a-commit\n")
	if _, err := r.open().Staged(Scope{}); err == nil || !strings.Contains(err.Error(), "MERGE_HEAD") {
		t.Errorf("got %v", err)
	}
}

func TestTip(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/intent.small.yml", "a")
	r.Write("src/x.go", "x\n")
	root := r.Commit("root")
	r.Write(".small/intent.small.yml", "a b")
	r.Commit("b")
	r.Write(".small/intent.small.yml", "a b c")
	old := r.Commit("c")
	g := r.open()

	if u, err := g.Tip(root, old, "", Scope{}); err != nil || u != nil {
		t.Errorf("a push that only adds commits: %+v, %v", u, err)
	}
	if u, err := g.Tip(old, old, "", Scope{}); err != nil || u != nil {
		t.Errorf("the same tip: %+v, %v", u, err)
	}
	// Reset to the root and push again: the new tip is an ancestor.
	u, err := g.Tip(old, root, "", Scope{})
	if err != nil || u == nil {
		t.Fatalf("a reset: %+v, %v", u, err)
	}
	if got := summary(u.Changes); u.Mode != changes.ModeTip || u.Commit.Hash != root || got != ".small/intent.small.yml:a b c>a" {
		t.Errorf("a reset: mode %s, commit %s, changes %s", u.Mode, u.Commit.Hash, got)
	}
	// A different append force-pushed over the old one.
	r.Git("checkout", "-q", "-b", "rewrite", root)
	r.Write(".small/intent.small.yml", "a z")
	rewritten := r.Commit("z")
	u, err = r.open().Tip(old, rewritten, "", Scope{})
	if err != nil || u == nil {
		t.Fatalf("a rewrite: %+v, %v", u, err)
	}
	if got := summary(u.Changes); got != ".small/intent.small.yml:a b c>a z" {
		t.Errorf("a rewrite: %s", got)
	}
	before, err := u.Before.Read(".small/intent.small.yml")
	if err != nil || before == nil || string(before.Data) != "a b c" {
		t.Errorf("Before does not read the previous tip: %+v, %v", before, err)
	}
	// An orphan branch shares nothing with the old tip.
	r.Git("checkout", "-q", "--orphan", "orphan")
	r.Git("rm", "-q", "-r", "--cached", ".")
	r.Write(".small/intent.small.yml", "z")
	orphan := r.Commit("orphan")
	u, err = r.open().Tip(old, orphan, "", Scope{})
	if err != nil || u == nil {
		t.Fatalf("an orphan: %+v, %v", u, err)
	}
	if got := summary(u.Changes); got != ".small/intent.small.yml:a b c>z" {
		t.Errorf("an orphan: %s", got)
	}
}

// TestHistory: an empty base is every commit of head, the root judged as
// adding its files.
func TestHistory(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/intent.small.yml", "a")
	r.Commit("root")
	r.Write(".small/intent.small.yml", "a b")
	r.Commit("b")
	units, err := rangeUnits(r.open(), "", "HEAD", Scope{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, u := range units {
		got = append(got, strings.TrimSpace(u.Commit.Message)+"["+summary(u.Changes)+"]")
	}
	if want := "root[.small/intent.small.yml:->a] b[.small/intent.small.yml:a>a b]"; strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	clone := t.TempDir()
	gittest.At(t, clone).Git("clone", "-q", "--depth", "1", "file://"+r.Dir, "c")
	c := &repo{gittest.At(t, clone+"/c").Dated()}
	if _, err := rangeUnits(c.open(), "", "HEAD", Scope{}); !errors.Is(err, ErrShallow) {
		t.Errorf("the history of a shallow clone: %v", err)
	}
}

func TestIndexTree(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/intent.small.yml", "p\n")
	r.Write(".small/plan.small.yml", "q\n")
	r.Write("src/x.go", "x\n")
	r.Commit("one")
	u, err := r.open().IndexTree([]string{".small/intent.small.yml", "src/x.go", ".small/untracked.yml"}, Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(u.Changes); u.Mode != changes.ModeTree || got != ".small/intent.small.yml:->p" {
		t.Errorf("mode %s, changes %s", u.Mode, got)
	}
	if list, err := u.Files.List(".small/"); err != nil || strings.Join(list, " ") != ".small/intent.small.yml .small/plan.small.yml" {
		t.Errorf("Files does not read the whole index: %v, %v", list, err)
	}
}

// TestResolveSaysWhatIsWrong: each way a revision cannot be found has its
// own message, and a shallow clone's says so once.
func TestResolveSaysWhatIsWrong(t *testing.T) {
	empty := newRepo(t)
	for _, rev := range []string{"HEAD", "main"} {
		if _, err := empty.open().Resolve(rev); err == nil || !strings.Contains(err.Error(), "no commits yet") {
			t.Errorf("%s in an empty repository: %v", rev, err)
		}
	}
	r := newRepo(t)
	for i := 0; i < 3; i++ {
		r.Write("f", fmt.Sprint(i))
		r.Commit(fmt.Sprint(i))
	}
	if _, err := r.open().Resolve("nope"); err == nil || !strings.Contains(err.Error(), `unknown revision "nope"`) || errors.Is(err, ErrShallow) {
		t.Errorf("unknown revision: %v", err)
	}
	clone := t.TempDir()
	gittest.At(t, clone).Git("clone", "-q", "--depth", "1", "file://"+r.Dir, "c")
	c := &repo{gittest.At(t, clone+"/c").Dated()}
	_, err := c.open().Resolve("HEAD~2")
	if !errors.Is(err, ErrShallow) || strings.Count(err.Error(), "clone") != 1 {
		t.Errorf("shallow: %v", err)
	}
}
