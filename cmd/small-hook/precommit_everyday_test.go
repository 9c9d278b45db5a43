//go:build e2e

package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/push"
)

// TestPreCommitFrameworkEverydayGit runs Debian's pre-commit 3.0.4 through
// the daily paths after the first steps, with the hooks of one snapshot
// of this checkout, which the framework builds once for them all:
//   - linked_worktree: commits and pushes from a linked worktree, whose
//     hooks git runs with GIT_DIR=.git/worktrees/<name>;
//   - push_to_a_new_remote: branches pushed to a remote just added, for
//     which pre-commit names no range, get the native pre-push hook's
//     verdicts;
//   - one_ref_of_a_push: pre-commit checks the first ref of a push only;
//   - install_beside_it: `small-hook install` in a repository whose hooks
//     the framework runs says what to list, and following it works.
func TestPreCommitFrameworkEverydayGit(t *testing.T) {
	env := preCommitEnv(t)
	snapshot := snapshotWorkingTree(t)
	for _, s := range []struct {
		name string
		run  func(t *testing.T, env []string, snapshot *testRepo)
	}{
		{"linked worktree", preCommitInALinkedWorktree},
		{"push to a new remote", preCommitPushToANewRemote},
		{"one ref of a push", preCommitChecksOneRefOfAPush},
		{"install beside it", installBesidePreCommit},
	} {
		t.Run(s.name, func(t *testing.T) { s.run(t, env, snapshot) })
	}
}

// recommendedHooks are the hooks docs/integrations.md recommends listing.
func recommendedHooks() []string { return []string{"small-hook-commit-msg", "small-hook-push"} }

// preCommitInALinkedWorktree commits and pushes from a linked
// worktree through Debian's pre-commit 3.0.4, whose hooks git runs there
// with GIT_DIR=.git/worktrees/<name>: a clean append passes, a rewrite is
// refused at the commit and at the push of a new branch, and the clean
// branch is pushed.
func preCommitInALinkedWorktree(t *testing.T, env []string, snapshot *testRepo) {
	r := frameworkRepo(t, env, snapshot, recommendedHooks(), []string{"commit-msg", "pre-push"})
	dir := filepath.Join(t.TempDir(), "agent-1")
	r.Git("worktree", "add", "-q", "-b", "feature", dir)
	appendPassesRewriteIsRefused(t, repoAt(t, dir), env, "feature")
}

// preCommitPushToANewRemote pushes branches to a remote just
// added through Debian's pre-commit 3.0.4, which names no range for them
// (PRE_COMMIT_FROM_REF and TO_REF unset): the verdicts are the native
// pre-push hook's on the same pushes — a one-commit clean branch, and one
// with an agent's edit of the intent — and so are the rules that refuse.
func preCommitPushToANewRemote(t *testing.T, env []string, snapshot *testRepo) {
	r := frameworkRepo(t, env, snapshot, recommendedHooks(), []string{"commit-msg", "pre-push"})
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

// preCommitChecksOneRefOfAPush: pre-commit hands its push
// hooks no standard input and names only the first ref of a push that has
// new commits, so `git push origin good bad` runs the check on good alone:
// the push goes through with bad's rewrite. The native pre-push hook, which
// reads every ref git lists, refuses the same push; so do CI and the
// server's pre-receive hook (docs/integrations.md says so).
func preCommitChecksOneRefOfAPush(t *testing.T, env []string, snapshot *testRepo) {
	r := frameworkRepo(t, env, snapshot, recommendedHooks(), []string{"commit-msg", "pre-push"})
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
		lines = append(lines, fmt.Sprintf("refs/heads/%s %s refs/heads/%s %s", b, r.Git("rev-parse", b), b, push.ZeroID))
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

// installBesidePreCommit: in a repository whose hooks the
// pre-commit framework runs (Debian's 3.0.4), `small-hook install` writes
// no hook of its own and names the hooks to list and the command to run;
// following it exactly (the hook repository a local clone, offline) makes
// pre-commit run small-hook — a rewrite is refused — and install then
// says the hooks are listed already, with nothing to do.
func installBesidePreCommit(t *testing.T, env []string, snapshot *testRepo) {
	env = append(env[:len(env):len(env)], binPATH(t))
	bin := smallHook.path(t)
	r := workspaceRepo(t)
	r.Write(".pre-commit-config.yaml", "repos:\n- repo: local\n  hooks:\n  - id: lint\n    name: lint\n    entry: 'true'\n    language: system\n")
	r.Commit("pre-commit config")
	if out, ok := runIn(t, r.Dir, env, "pre-commit", "install"); !ok {
		t.Fatalf("pre-commit install: %s", out)
	}

	out, ok := runIn(t, r.Dir, env, bin, "install")
	ids := regexp.MustCompile(`add the hooks (\S+) and (\S+) of https://github.com/small-hook/small-hook`).FindStringSubmatch(out)
	command := regexp.MustCompile("and run `(pre-commit install[^`]*)`").FindStringSubmatch(out)
	if ok || ids == nil || command == nil {
		t.Fatalf("install beside pre-commit: ok %v, want the hooks to list and the command:\n%s", ok, out)
	}
	config := r.Read(".pre-commit-config.yaml") + "- repo: " + snapshot.Dir + "\n  rev: " + snapshot.Git("rev-parse", "HEAD") + "\n  hooks:\n"
	for _, id := range ids[1:] {
		config += "  - id: " + id + "\n"
	}
	r.Write(".pre-commit-config.yaml", config)
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "list small-hook's hooks")
	args := strings.Fields(command[1])
	if out, ok := runIn(t, r.Dir, env, args[0], args[1:]...); !ok {
		t.Fatalf("%s: %s", command[1], out)
	}

	rewriteProgress(r)
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "rewrite"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("after following the advice, pre-commit let a rewrite through:\n%s", out)
	}
	r.Git("reset", "-q", "--hard")
	out, ok = runIn(t, r.Dir, env, bin, "install")
	if !ok || !strings.Contains(out, "already lists small-hook's ("+ids[1]+", "+ids[2]+")") || !strings.Contains(out, "commit-msg: unchanged") {
		t.Fatalf("install once pre-commit runs small-hook: ok %v\n%s", ok, out)
	}
}
