//go:build e2e

package main

import (
	"path/filepath"
	"testing"
)

// TestPreCommitFrameworkInALinkedWorktree commits and pushes from a linked
// worktree through Debian's pre-commit 3.0.4, whose hooks git runs there
// with GIT_DIR=.git/worktrees/<name>: a clean append passes, a rewrite is
// refused at the commit and at the push of a new branch, and the clean
// branch is pushed.
func TestPreCommitFrameworkInALinkedWorktree(t *testing.T) {
	r, env := recommendedFrameworkRepo(t)
	dir := filepath.Join(t.TempDir(), "agent-1")
	r.Git("worktree", "add", "-q", "-b", "feature", dir)
	appendPassesRewriteIsRefused(t, repoAt(t, dir), env, "feature")
}
