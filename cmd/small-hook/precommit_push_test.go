//go:build e2e

package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// recommendedFrameworkRepo is frameworkRepo with the hooks
// docs/integrations.md recommends (small-hook-commit-msg, small-hook-push)
// of a snapshot of this checkout, and the environment of its commands.
func recommendedFrameworkRepo(t *testing.T) (*testRepo, []string) {
	t.Helper()
	env := preCommitEnv(t)
	r := frameworkRepo(t, env, snapshotWorkingTree(t), []string{"small-hook-commit-msg", "small-hook-push"}, []string{"commit-msg", "pre-push"})
	return r, env
}

// TestPreCommitFrameworkPushToANewRemote pushes branches to a remote just
// added through Debian's pre-commit 3.0.4, which names no range for them
// (PRE_COMMIT_FROM_REF and TO_REF unset): the verdicts are the native
// pre-push hook's on the same pushes — a one-commit clean branch, and one
// with an agent's edit of the intent — and so are the rules that refuse.
func TestPreCommitFrameworkPushToANewRemote(t *testing.T) {
	r, env := recommendedFrameworkRepo(t)
	gitRun := func(args ...string) (string, bool) {
		t.Helper()
		return runIn(t, r.Dir, env, "git", args...)
	}
	rewriteProgress(r)
	if out, ok := gitRun("commit", "-q", "--no-verify", "-am", "an old rewrite"); !ok {
		t.Fatal(out)
	}
	if out, ok := gitRun("push", "-q", "--no-verify", "origin", "main"); !ok {
		t.Fatal(out)
	}
	fork := filepath.Join(t.TempDir(), "fork.git")
	r.Git("init", "-q", "--bare", fork)
	r.Git("remote", "add", "fork", fork)
	r.Git("checkout", "-q", "-b", "feature2")
	r.Write("README.md", "docs\n")
	r.Git("add", "-A")
	if out, ok := gitRun("commit", "-q", "-m", "docs"); !ok {
		t.Fatal(out)
	}
	r.Git("checkout", "-q", "-b", "agent")
	editIntent(r, "an agent's intent")
	if out, ok := gitRun("commit", "-q", "--no-verify", "-am", "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>"); !ok {
		t.Fatal(out)
	}
	for _, branch := range []string{"agent", "feature2"} {
		want := prePushVerdict(t, r, "fork", branch)
		out, ok := gitRun("push", "fork", branch)
		same := ok == strings.HasPrefix(want, "exit 0,")
		for _, rule := range []string{"small/append-only", "small/ownership"} {
			same = same && strings.Contains(out, rule) == strings.Contains(want, rule)
		}
		if !same {
			t.Errorf("pre-commit's push of %s to a new remote (ok %v):\n%s\nwant the pre-push hook's verdict:\n%s", branch, ok, out, want)
		}
	}
}

// TestPreCommitFrameworkChecksOneRefOfAPush: pre-commit hands its push
// hooks no standard input and names only the first ref of a push that has
// new commits, so `git push origin good bad` runs the check on good alone:
// the push goes through with bad's rewrite. The native pre-push hook, which
// reads every ref git lists, refuses the same push; so do CI and the
// server's pre-receive hook (docs/integrations.md says so).
func TestPreCommitFrameworkChecksOneRefOfAPush(t *testing.T) {
	r, env := recommendedFrameworkRepo(t)
	gitRun := func(args ...string) (string, bool) {
		t.Helper()
		return runIn(t, r.Dir, env, "git", args...)
	}
	r.Git("checkout", "-q", "-b", "good")
	r.Write("README.md", "docs\n")
	r.Git("add", "-A")
	if out, ok := gitRun("commit", "-q", "-m", "docs"); !ok {
		t.Fatal(out)
	}
	r.Git("checkout", "-q", "-b", "bad", "main")
	rewriteProgress(r)
	if out, ok := gitRun("commit", "-q", "--no-verify", "-am", "rewrite"); !ok {
		t.Fatal(out)
	}
	var lines []string
	for _, b := range []string{"good", "bad"} {
		lines = append(lines, fmt.Sprintf("refs/heads/%s %s refs/heads/%s %s", b, r.Git("rev-parse", b), b, zeroID))
	}
	code, native, _ := r.checkInput(strings.Join(lines, "\n")+"\n", "check", "--pre-push", "origin")
	if code != exitFindings || !strings.Contains(native, "refs/heads/bad: ") || !strings.Contains(native, "small/append-only") {
		t.Fatalf("the native pre-push hook on good and bad: exit %d\n%s", code, native)
	}
	out, ok := gitRun("push", "origin", "good", "bad")
	if !ok || strings.Contains(out, "small/append-only") {
		t.Fatalf("pre-commit checked more than the first ref of the push (update docs/integrations.md):\n%s", out)
	}
	if got := repoAt(t, r.Git("remote", "get-url", "origin")).Git("rev-parse", "refs/heads/bad"); got != r.Git("rev-parse", "bad") {
		t.Fatalf("bad did not reach the remote: %s", got)
	}
}
