package main

import (
	"regexp"
	"strings"
	"testing"
)

// conflict matches one conflicted region git leaves in a file: ours, then
// theirs.
var conflict = regexp.MustCompile(`(?s)<<<<<<< [^\n]*\n(.*?)=======\n(.*?)>>>>>>> [^\n]*\n`)

// resolveConflict resolves the conflicted region of the progress file
// with what join makes of ours and theirs, and stages it.
func resolveConflict(t *testing.T, r *testRepo, join func(ours, theirs string) string) {
	t.Helper()
	text := r.Read(progressPath)
	m := conflict.FindStringSubmatchIndex(text)
	if m == nil {
		t.Fatalf("no conflict in %s:\n%s", progressPath, text)
	}
	r.Write(progressPath, text[:m[0]]+join(text[m[2]:m[3]], text[m[4]:m[5]])+text[m[1]:])
	r.Git("add", progressPath)
}

// divergedProgress is a pushed feature branch that appended an entry
// (minute 21) while main appended a later one (minute 22), both pushed;
// the feature branch is checked out.
func divergedProgress(t *testing.T) *testRepo {
	t.Helper()
	r := pushRepo(t)
	r.Git("checkout", "-q", "-b", "feature")
	appendProgress(r, "feature work", 21)
	if out, ok := pushOrigin(t, r, "-u", "feature"); !ok {
		t.Fatalf("pushing feature: %s", out)
	}
	r.Git("checkout", "-q", "main")
	appendProgress(r, "main work", 22)
	if out, ok := pushOrigin(t, r, "main"); !ok {
		t.Fatalf("pushing main: %s", out)
	}
	r.Git("checkout", "-q", "feature")
	return r
}

// rebaseOntoMain rebases feature onto origin/main, resolving the conflict
// in the progress file with join (in a rebase, ours is main's entry and
// theirs the branch's) and, when redate is set, giving the branch's entry
// a later time.
func rebaseOntoMain(t *testing.T, r *testRepo, join func(ours, theirs string) string, redate bool) {
	t.Helper()
	if _, err := r.Try("rebase", "origin/main"); err == nil {
		t.Fatal("the rebase did not conflict")
	}
	resolveConflict(t, r, join)
	if redate {
		r.Write(progressPath, strings.Replace(r.Read(progressPath), "10:21:00", "10:23:00", 1))
		r.Git("add", progressPath)
	}
	r.GitEnv([]string{"GIT_EDITOR=true"}, "rebase", "--continue")
}

// TestRebasedProgressIsPublishedByAMerge: a branch that appended progress
// while main did, rebased onto main, can never be pushed — its entry after
// main's is older (small/timestamp), before it inserted
// (small/append-only), re-dated not what the pushed branch held (the tip
// comparison) — and each refusal's hint says to undo the rebase and merge
// instead; following it exactly (git reset --hard ORIG_HEAD, git merge
// origin/main, the conflict resolved keeping both sides' entries in time
// order) the push goes through.
func TestRebasedProgressIsPublishedByAMerge(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, rule string
		join       func(ours, theirs string) string
		redate     bool
	}{
		{"the branch's entry after main's", "small/timestamp", func(ours, theirs string) string { return ours + theirs }, false},
		{"the branch's entry before main's", "small/append-only", func(ours, theirs string) string { return theirs + ours }, false},
		{"the branch's entry re-dated after main's", "small/append-only", func(ours, theirs string) string { return ours + theirs }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := divergedProgress(t)
			rebaseOntoMain(t, r, c.join, c.redate)
			out, ok := pushOrigin(t, r, "--force", "feature")
			for _, want := range []string{c.rule, "git reset --hard ORIG_HEAD", "git merge origin/main", "git pull --no-rebase"} {
				if ok || !strings.Contains(out, want) {
					t.Fatalf("the rebased branch's push: want it refused with %q in the advice:\n%s", want, out)
				}
			}
			r.Git("reset", "-q", "--hard", "ORIG_HEAD")
			if _, err := r.Try("merge", "origin/main"); err == nil {
				t.Fatal("the merge did not conflict")
			}
			resolveConflict(t, r, func(ours, theirs string) string { return ours + theirs })
			if out, ok := tryCommit(t, r, []string{binPATH(t)}, "--no-edit"); !ok {
				t.Fatalf("the merge commit was refused:\n%s", out)
			}
			if out, ok := pushOrigin(t, r, "feature"); !ok {
				t.Fatalf("the merge was refused:\n%s", out)
			}
		})
	}
}
