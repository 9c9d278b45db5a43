package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withCommitter returns the environment for git commands run by identity
// (name, email) as committer, with the small-hook binary on PATH so that
// installed hooks run.
func withCommitter(t testing.TB, name, email string) []string {
	return []string{binPATH(t),
		"GIT_COMMITTER_NAME=" + name, "GIT_COMMITTER_EMAIL=" + email}
}

// tryCommit runs git commit with extra environment and reports the output
// and whether the commit was made.
func tryCommit(t *testing.T, r *testRepo, extra []string, args ...string) (string, bool) {
	t.Helper()
	return runIn(t, r.Dir, cleanEnv(extra...), "git", append([]string{"commit", "-q"}, args...)...)
}

// TestAmendIsJudgedAgainstTheCommitItReplaces documents what git lets a
// hook know: nothing tells the pre-commit or commit-msg hook that a
// commit is an amend (git 2.39 sets no variable and passes no argument;
// GIT_AUTHOR_DATE is the amended commit's, as with -C HEAD), so the staged
// change is judged against HEAD, the commit being replaced. Correcting an
// entry the amended commit added is refused; `git reset --soft HEAD~1`
// and a new commit judge the same change against the true parent.
func TestAmendIsJudgedAgainstTheCommitItReplaces(t *testing.T) {
	r := pushRepo(t)
	appendProgress(r, "a typo in the evidnce", 21)
	r.Write(progressPath, strings.Replace(r.Read(progressPath), "evidnce", "evidence", 1))
	r.Git("add", "-A")
	if out, ok := tryCommit(t, r, withCommitter(t, "Test Human", "human@example.com"), "--amend", "--no-edit"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("an amend that corrects its own entry was judged against its parent, not HEAD:\n%s", out)
	}
	r.Git("reset", "-q", "--soft", "HEAD~1")
	if out, ok := tryCommit(t, r, withCommitter(t, "Test Human", "human@example.com"), "-m", "progress, corrected"); !ok {
		t.Fatalf("the corrected entry, committed on the true parent, was refused:\n%s", out)
	}
}

// TestAgentAmendingAHumanCommit: git keeps the amended commit's author, so
// the commit-msg hook attributes an amend by the committer's identity too,
// and the range check judges the amended commit against its real parent.
func TestAgentAmendingAHumanCommit(t *testing.T) {
	agent := withCommitter(t, "Cursor Agent", "cursoragent@cursor.com")
	human := withCommitter(t, "Test Human", "human@example.com")

	// The agent's own edit of the human-owned intent, amended into a human
	// commit, is refused at commit time.
	r := pushRepo(t)
	editIntent(r, "the human's refinement")
	r.Git("add", "-A")
	if out, ok := tryCommit(t, r, human, "-m", "refine intent"); !ok {
		t.Fatalf("a human's intent edit was refused:\n%s", out)
	}
	editIntent(r, "the agent's rewrite")
	r.Git("add", "-A")
	if out, ok := tryCommit(t, r, agent, "--amend", "--no-edit"); ok || !strings.Contains(out, "small/ownership") {
		t.Fatalf("an agent amending its intent edit into a human commit went through:\n%s", out)
	}

	// An agent that amends only what it may edit gets through the commit,
	// but the amended commit, judged whole against its parent at push time,
	// is an agent commit that edits the intent.
	r.Write(progressPath, r.Read(progressPath)+progressEntry("the agent's entry", 21))
	r.Git("checkout", "-q", "HEAD", "--", ".small/intent.small.yml")
	r.Git("add", "-A")
	if out, ok := tryCommit(t, r, agent, "--amend", "--no-edit"); !ok {
		t.Fatalf("an agent amending a progress entry into a human commit was refused:\n%s", out)
	}
	if out, ok := pushOrigin(t, r, "main"); ok || !strings.Contains(out, "small/ownership") {
		t.Fatalf("the push of an agent's amend of a human intent commit went through:\n%s", out)
	}
}

// TestRebaseContinueSkipsTheHooks: git rebase commits without running the
// pre-commit and commit-msg hooks, so a conflict resolved by dropping an
// entry gets through the rebase; the push of the rebased branch does not.
func TestRebaseContinueSkipsTheHooks(t *testing.T) {
	r := pushRepo(t)
	r.Git("checkout", "-q", "-b", "feature")
	appendProgress(r, "the branch's entry", 22)
	if out, ok := pushOrigin(t, r, "feature"); !ok {
		t.Fatalf("pushing the feature branch was refused:\n%s", out)
	}
	r.Git("checkout", "-q", "main")
	fork := r.Read(progressPath)
	appendProgress(r, "main's entry", 21)
	if out, ok := pushOrigin(t, r, "main"); !ok {
		t.Fatalf("pushing main was refused:\n%s", out)
	}
	r.Git("checkout", "-q", "feature")
	if out, ok := runIn(t, r.Dir, binEnv(t), "git", "rebase", "main"); ok {
		t.Fatalf("the rebase did not stop on a conflict:\n%s", out)
	}
	// Resolved by dropping main's entry: the rebased commit rewrites what
	// it is now based on.
	r.Write(progressPath, fork+progressEntry("the branch's entry", 22))
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, append(binEnv(t), "GIT_EDITOR=true"), "git", "rebase", "--continue"); !ok {
		t.Fatalf("git rebase --continue ran a hook that refused:\n%s", out)
	}
	out, ok := pushOrigin(t, r, "--force", "feature")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("the push of a rebase that dropped main's entry went through:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "rebase-merge")); err == nil {
		t.Fatal("the rebase is still in progress")
	}
}
