package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestNativeHooksInALinkedWorktree: parallel agents work one linked
// worktree each. `small-hook install` run inside a worktree writes the
// hooks where git runs them for every worktree (`git rev-parse --git-path
// hooks`: the common git directory's), and through them, where git runs
// each hook with GIT_DIR=.git/worktrees/<name>, a clean commit and a
// commit that touches nothing governed pass, an agent's edit of the intent
// and a history rewrite are refused, and a push from the worktree is
// judged by what it adds: the rewrite refused, the clean branch accepted.
// `small-hook log` reads the worktree's branch.
func TestNativeHooksInALinkedWorktree(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	bin, env := withBinary(t)
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	r.Git("push", "-q", "origin", "main")
	dir := filepath.Join(t.TempDir(), "agent-1")
	r.Git("worktree", "add", "-q", "-b", "feature", dir)
	w := repoAt(t, dir)

	out, ok := runIn(t, w.Dir, env, bin, "install")
	hooksDir := w.Git("rev-parse", "--path-format=absolute", "--git-path", "hooks")
	if !ok || !strings.Contains(out, "pre-commit: installed ("+filepath.Join(hooksDir, "pre-commit")+")") || hooksDir != filepath.Join(r.Dir, ".git", "hooks") {
		t.Fatalf("install in a worktree did not write the hooks git runs there (%s):\n%s", hooksDir, out)
	}
	w.Write("README.md", "docs\n")
	w.Git("add", "-A")
	if out, ok := runIn(t, w.Dir, env, "git", "commit", "-q", "-m", "docs"); !ok || out != "" {
		t.Fatalf("a commit that touches nothing governed, in a worktree: ok %v\n%s", ok, out)
	}
	refuseAgentIntentEdit(t, w, env)
	appendPassesRewriteIsRefused(t, w, env, "feature")
	out, ok = runIn(t, w.Dir, env, bin, "log")
	if !ok || !strings.Contains(out, "ledger of "+w.Git("rev-parse", "--short=12", "feature")) {
		t.Fatalf("log in a worktree:\n%s", out)
	}
}

// appendPassesRewriteIsRefused commits a clean progress append through the
// hooks git runs in r, then a rewrite of progress, which the commit
// refuses; commits the rewrite with --no-verify, which a push of branch to
// origin refuses; and pushes the branch without it.
func appendPassesRewriteIsRefused(t *testing.T, r *testRepo, env []string, branch string) {
	t.Helper()
	gitRun := func(args ...string) (string, bool) {
		t.Helper()
		return runIn(t, r.Dir, env, "git", args...)
	}
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Git("add", "-A")
	if out, ok := gitRun("commit", "-q", "-m", "progress"); !ok {
		t.Fatalf("a clean append was refused:\n%s", out)
	}
	rewriteProgress(r)
	r.Git("add", "-A")
	if out, ok := gitRun("commit", "-q", "-m", "rewrite"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("a history rewrite went through the commit:\n%s", out)
	}
	if out, ok := gitRun("commit", "-q", "--no-verify", "-m", "rewrite"); !ok {
		t.Fatal(out)
	}
	if out, ok := gitRun("push", "-q", "origin", branch); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("the push let a rewrite through:\n%s", out)
	}
	r.Git("reset", "-q", "--hard", "HEAD~1")
	if out, ok := gitRun("push", "-q", "origin", branch); !ok {
		t.Fatalf("a clean push was refused:\n%s", out)
	}
}
