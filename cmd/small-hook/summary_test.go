package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/push"
)

// TestRefusedDeletionIsCountedAsARef: the pre-push hook refuses the
// deletion of the remote's default branch; the summary counts the error
// in the ref it is about, not in a file, when no file was checked.
func TestRefusedDeletionIsCountedAsARef(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	r.Git("push", "-q", "origin", "main")
	r.Git("remote", "set-head", "origin", "main")
	line := "(delete) " + push.ZeroID + " refs/heads/main " + r.Git("rev-parse", "main") + "\n"
	code, out, errOut := r.checkInput(line, "check", "--pre-push", "origin")
	if code != exitFindings || !strings.Contains(out, "push/protected") || !strings.HasSuffix(out, "small-hook (pre-push hook): 1 error in 1 ref (0 files checked, 0 commits)\n") {
		t.Fatalf("a refused deletion: exit %d\n%s%s", code, out, errOut)
	}
}

// TestAnOrdinaryCommitPrintsOneLine: with small-hook's hooks, a commit
// that passes prints one line, the commit-msg stage's — with `git commit
// -q` too, which git does not tell its hooks about — and a commit that
// touches nothing governed prints nothing. Without the commit-msg hook the
// pre-commit stage prints the line; a hand-run check always does.
func TestAnOrdinaryCommitPrintsOneLine(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	bin, env := withBinary(t)
	if out, ok := runIn(t, r.Dir, env, bin, "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	commit := func(args ...string) string {
		t.Helper()
		out, ok := runIn(t, r.Dir, env, "git", append([]string{"commit"}, args...)...)
		if !ok {
			t.Fatalf("git commit %v:\n%s", args, out)
		}
		return out
	}
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Git("add", "-A")
	if out := commit("-q", "-m", "progress"); out != "small-hook (commit-msg stage): no problems in 1 file\n" {
		t.Errorf("git commit -q of a clean append printed:\n%s", out)
	}
	r.Write("README.md", "docs\n")
	r.Git("add", "-A")
	if out := commit("-q", "-m", "docs"); out != "" {
		t.Errorf("a commit of nothing governed printed:\n%s", out)
	}
	r.Write(progressPath, r.Read(progressPath)+strings.Replace(appendedEntry, "10:20:00", "10:21:00", 1))
	r.Git("add", "-A")
	if out := commit("-m", "more progress"); strings.Count(out, "small-hook (") != 1 || !strings.Contains(out, "small-hook (commit-msg stage): no problems in 1 file\n") {
		t.Errorf("git commit of a clean append printed:\n%s", out)
	}
	r.Remove(".git/hooks/commit-msg")
	r.Write(progressPath, r.Read(progressPath)+strings.Replace(appendedEntry, "10:20:00", "10:22:00", 1))
	r.Git("add", "-A")
	if out := commit("-q", "-m", "without the commit-msg hook"); out != "small-hook (pre-commit stage): no problems in 1 file\n" {
		t.Errorf("the pre-commit stage alone printed:\n%s", out)
	}
	r.Write(progressPath, r.Read(progressPath)+strings.Replace(appendedEntry, "10:20:00", "10:23:00", 1))
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, env, bin, "check"); !ok || out != "small-hook (pre-commit stage): no problems in 1 file\n" {
		t.Errorf("a hand-run check printed:\n%s", out)
	}
}
