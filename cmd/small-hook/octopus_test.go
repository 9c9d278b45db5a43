package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// octopusRepo builds main's history A, then B — a human's commit that
// edits the intent, appends a progress entry and records a new provenance
// entry of an artifact — and two branches C and D from B. It returns the
// repository and the commits A, B, C and D.
func octopusRepo(t *testing.T) (r *testRepo, a, b, c, d string) {
	t.Helper()
	r = workspaceRepo(t)
	r.Write(artifactPath, smpFixture(t, "llm-context-research.v2.md"))
	a = r.Commit("A: the artifact at version 2")
	editIntent(r, "a human's new intent")
	r.Write(progressPath, r.Read(progressPath)+progressEntry("B's entry", 21))
	r.Write(artifactPath, smpFixture(t, "llm-context-research.v3.md"))
	b = r.Commit("B: a human edits the intent, appends progress and updates the artifact")
	r.Git("checkout", "-q", "-b", "c", b)
	r.Write("c.txt", "c\n")
	c = r.Commit("C")
	r.Git("checkout", "-q", "-b", "d", b)
	r.Write("d.txt", "d\n")
	d = r.Commit("D")
	return r, a, b, c, d
}

// TestOctopusMergeIsJudgedAgainstEveryParent: an agent's merge of C, D and
// the old commit A that takes A's files undoes B's intent edit and drops
// B's progress and provenance entries. Judged against the first two
// parents only, C and D agree with their merge base B, and the result
// looked like A's change taken unchanged; judged against every parent and
// every merge base (A is the merge base of A and C), it is refused, as the
// same merge with two parents is.
func TestOctopusMergeIsJudgedAgainstEveryParent(t *testing.T) {
	t.Parallel()
	r, a, b, c, d := octopusRepo(t)
	want := []string{"small/append-only", "small/ownership", "smp/append-only"}
	for name, parents := range map[string][]string{"octopus C D A": {c, d, a}, "two parents C A": {c, a}} {
		args := []string{"commit-tree", a + "^{tree}", "-m", "Merge C, D and A\n\nSmall-Actor: agent"}
		for _, p := range parents {
			args = append(args, "-p", p)
		}
		merge := r.Git(args...)
		code, out, errOut := r.check(nil, "check", "--base", b, "--head", merge, "--format", "json")
		got := rulesOf(decodeReport(t, out))
		for _, rule := range want {
			if !slices.Contains(got, rule) {
				t.Errorf("%s: %s is not reported (exit %d): %v\n%s%s", name, rule, code, got, out, errOut)
			}
		}
	}
}

// TestStagedOctopusMergeIsJudgedAgainstEveryParent: the same merge in
// progress (MERGE_HEAD names D and A, the index holds A's tree) gets the
// same verdict in the commit-msg stage.
func TestStagedOctopusMergeIsJudgedAgainstEveryParent(t *testing.T) {
	t.Parallel()
	r, a, _, c, d := octopusRepo(t)
	r.Git("checkout", "-q", c)
	r.Git("read-tree", "--reset", "-u", a)
	if err := os.WriteFile(filepath.Join(r.Dir, ".git", "MERGE_HEAD"), []byte(d+"\n"+a+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := filepath.Join(t.TempDir(), "COMMIT_EDITMSG")
	writeMessage(t, msg, "Merge C, D and A\n\nSmall-Actor: agent\n")
	code, out, errOut := r.check(nil, "check", "--commit-msg", msg, "--format", "json")
	got := rulesOf(decodeReport(t, out))
	for _, rule := range []string{"small/append-only", "small/ownership", "smp/append-only"} {
		if !slices.Contains(got, rule) {
			t.Errorf("%s is not reported (exit %d): %v\n%s%s", rule, code, got, out, errOut)
		}
	}
}

// TestOctopusMergeOfAppendingBranchesPasses: three branches that each
// appended an entry, merged at once with every entry kept in time order,
// pass; so does an octopus merge that takes each file from the one branch
// that changed it.
func TestOctopusMergeOfAppendingBranchesPasses(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	fork := r.Git("rev-parse", "HEAD")
	start := r.Read(progressPath)
	var tips []string
	for i, name := range []string{"x", "y", "z"} {
		r.Git("checkout", "-q", "-b", name, fork)
		r.Write(progressPath, start+progressEntry(name+"'s entry", 21+i))
		tips = append(tips, r.Commit(name))
	}
	r.Git("checkout", "-q", "-b", "w", fork)
	r.Write("w.txt", "w\n")
	w := r.Commit("w: no governed file")
	r.Git("checkout", "-q", tips[0])
	r.Write(progressPath, start+progressEntry("x's entry", 21)+progressEntry("y's entry", 22)+progressEntry("z's entry", 23))
	r.Write("w.txt", "w\n")
	r.Git("add", "-A")
	tree := r.Git("write-tree")
	merge := r.Git("commit-tree", tree, "-p", tips[0], "-p", tips[1], "-p", tips[2], "-p", w, "-m", "Merge x, y, z and w")
	if code, out, errOut := r.check(nil, "check", "--base", fork, "--head", merge); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}
