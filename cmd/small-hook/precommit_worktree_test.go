//go:build e2e

package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPreCommitFrameworkInALinkedWorktree commits and pushes from a linked
// worktree through Debian's pre-commit 3.0.4, whose hooks git runs there
// with GIT_DIR=.git/worktrees/<name>: a clean append passes, a rewrite is
// refused at the commit and at the push of a new branch, and the clean
// branch is pushed.
func TestPreCommitFrameworkInALinkedWorktree(t *testing.T) {
	env := preCommitEnv(t)
	snapshot := snapshotWorkingTree(t)
	r := frameworkRepo(t, env, snapshot, []string{"small-hook-commit-msg", "small-hook-push"}, []string{"commit-msg", "pre-push"})
	dir := filepath.Join(t.TempDir(), "agent-1")
	r.Git("worktree", "add", "-q", "-b", "feature", dir)
	w := repoAt(t, dir)
	gitRun := func(args ...string) (string, bool) {
		t.Helper()
		return runIn(t, w.Dir, env, "git", args...)
	}

	w.Write(progressPath, w.Read(progressPath)+appendedEntry)
	if out, ok := gitRun("commit", "-qam", "Record progress"); !ok {
		t.Fatalf("a clean append was refused in a worktree:\n%s", out)
	}
	rewriteProgress(w)
	if out, ok := gitRun("commit", "-qam", "rewrite"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("pre-commit let a rewrite through a worktree's commit:\n%s", out)
	}
	if out, ok := gitRun("commit", "-q", "--no-verify", "-am", "rewrite"); !ok {
		t.Fatal(out)
	}
	if out, ok := gitRun("push", "origin", "feature"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("pre-commit let a rewrite through a worktree's push:\n%s", out)
	}
	w.Git("reset", "-q", "--hard", "HEAD~1")
	if out, ok := gitRun("push", "origin", "feature"); !ok {
		t.Fatalf("a clean push from a worktree was refused through pre-commit:\n%s", out)
	}
}
