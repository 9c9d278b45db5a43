package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestPushToANewRemoteJudgesWhatThePushAdds: main holds an old rewrite
// (committed and pushed with --no-verify long ago); a fork of origin is
// added as a remote. Before it is fetched, nothing says what the fork
// has: a one-commit branch pushed to it is judged from the root, refused
// for the old rewrite, and the report says to fetch it first. After
// `git fetch fork`, the same push is judged on what the fork lacks, and
// passes; a new error on it is still refused.
func TestPushToANewRemoteJudgesWhatThePushAdds(t *testing.T) {
	t.Parallel()
	r := pushRepo(t)
	rewriteProgress(r)
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "an old rewrite")
	if out, ok := runIn(t, r.Dir, binEnv(t), "git", "push", "-q", "--no-verify", "origin", "main"); !ok {
		t.Fatal(out)
	}
	fork := filepath.Join(t.TempDir(), "fork.git")
	r.Git("clone", "-q", "--bare", r.Git("remote", "get-url", "origin"), fork)
	r.Git("remote", "add", "fork", fork)
	r.Git("checkout", "-q", "-b", "feature")
	r.Write("README.md", "docs\n")
	hookedCommit(r, "docs")
	out, ok := runIn(t, r.Dir, binEnv(t), "git", "push", "-q", "fork", "feature")
	if ok || !strings.Contains(out, "small/append-only") || !strings.Contains(out, "(git fetch fork first, and the push judges only what fork lacks)") {
		t.Fatalf("a push to a remote never fetched: want the whole history judged, and the advice to fetch it:\n%s", out)
	}
	r.Git("fetch", "-q", "fork")
	if out, ok := runIn(t, r.Dir, binEnv(t), "git", "push", "-q", "fork", "feature"); !ok {
		t.Fatalf("pushing a one-commit branch to a fetched fork was refused for history the fork already has:\n%s", out)
	}
	editIntent(r, "an agent's intent")
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	out, ok = runIn(t, r.Dir, binEnv(t), "git", "push", "-q", "fork", "feature:other")
	if ok || !strings.Contains(out, "small/ownership") || strings.Contains(out, "small/append-only") {
		t.Fatalf("a new branch on the fork: want only the new commit judged:\n%s", out)
	}
}

// TestPushJudgesWhatAFetchedForkHas: a rewrite that a fork holds (pushed
// there past the hooks) is fetched into refs/remotes/fork/; pushing it to
// origin judges it, since origin never did: only origin's own
// remote-tracking refs say what origin has judged.
func TestPushJudgesWhatAFetchedForkHas(t *testing.T) {
	t.Parallel()
	r := pushRepo(t)
	fork := filepath.Join(t.TempDir(), "fork.git")
	r.Git("clone", "-q", "--bare", r.Git("remote", "get-url", "origin"), fork)
	r.Git("remote", "add", "fork", fork)
	rewriteProgress(r)
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "a rewrite")
	rewrite := r.Git("rev-parse", "HEAD")
	r.Git("push", "-q", "--no-verify", "fork", "main")
	r.Git("reset", "-q", "--hard", "HEAD~1")
	r.Git("fetch", "-q", "fork")
	if got := r.Git("rev-parse", "refs/remotes/fork/main"); got != rewrite {
		t.Fatalf("refs/remotes/fork/main is %s", got)
	}
	out, ok := pushOrigin(t, r, rewrite+":refs/heads/main")
	if ok || !strings.Contains(out, "small/append-only") || !strings.Contains(out, rewrite[:12]) {
		t.Fatalf("a commit only the fork holds was pushed to origin unjudged:\n%s", out)
	}
}

// TestPushAfterSomeoneElsePushedSaysPullFirst: the remote moved on; the
// pre-push hook says so in git's words, names no flag the user never
// typed, and the advice works: pull, then push.
func TestPushAfterSomeoneElsePushedSaysPullFirst(t *testing.T) {
	t.Parallel()
	r := pushRepo(t)
	other := repoAt(t, filepath.Join(t.TempDir(), "other"))
	r.Git("clone", "-q", "-b", "main", r.Git("remote", "get-url", "origin"), other.Dir)
	other.Write("README.md", "someone else's docs\n")
	other.Commit("docs")
	other.Git("push", "-q", "--no-verify", "origin", "main")

	appendProgress(r, "my append", 21)
	out, ok := pushOrigin(t, r, "main")
	if ok || !strings.Contains(out, "the remote has commits you do not have: pull first (git pull --no-rebase origin main), then push again") {
		t.Fatalf("want git's reason and the command that fixes it:\n%s", out)
	}
	for _, word := range []string{"--previous", "--head", "unknown revision"} {
		if strings.Contains(out, word) {
			t.Errorf("the message names %q, which the user never typed:\n%s", word, out)
		}
	}
	if out, ok := runIn(t, r.Dir, binEnv(t), "git", "pull", "-q", "--no-rebase", "origin", "main"); !ok {
		t.Fatalf("the advice failed:\n%s", out)
	}
	if out, ok := pushOrigin(t, r, "main"); !ok {
		t.Fatalf("the push after pulling was refused:\n%s", out)
	}
}

// TestDeleteThenPushIsComparedWithTheTipTheRemoteHad: someone deleted the
// branch on the remote; this repository still has its remote-tracking
// ref, so a push that creates the branch again is compared with that tip
// and cannot drop its entries. Deleting the remote's default branch is
// refused.
func TestDeleteThenPushIsComparedWithTheTipTheRemoteHad(t *testing.T) {
	t.Parallel()
	r := pushRepo(t)
	r.Git("remote", "set-head", "origin", "main")
	r.Git("checkout", "-q", "-b", "topic")
	appendProgress(r, "first append", 21)
	old := appendProgress(r, "second append", 22)
	if out, ok := pushOrigin(t, r, "topic"); !ok {
		t.Fatal(out)
	}
	r.Git("push", "-q", "--no-verify", r.Git("remote", "get-url", "origin"), ":refs/heads/topic")
	if got := r.Git("rev-parse", "refs/remotes/origin/topic"); got != old {
		t.Fatalf("the remote-tracking ref moved: %s", got)
	}
	r.Git("reset", "-q", "--hard", "HEAD~2")
	next := appendProgress(r, "a different append", 23)
	out, ok := pushOrigin(t, r, "topic")
	refusedAsRewrite(t, "a branch deleted on the remote and pushed again without its entries", out, ok, old, next)

	out, ok = pushOrigin(t, r, ":main")
	if ok || !strings.Contains(out, "push/protected") || !strings.Contains(out, "refs/heads/main") {
		t.Fatalf("deleting the remote's default branch went through:\n%s", out)
	}
}

// TestNewBranchIsJudgedByTheRemotesConfiguration: in a repository whose
// remote has no refs/remotes/origin/HEAD (added with git remote add, not
// cloned), a new branch that turns off the rule its own rewrite breaks is
// judged by the configuration of the commit it grew from, which the remote
// has, not by its own.
func TestNewBranchIsJudgedByTheRemotesConfiguration(t *testing.T) {
	t.Parallel()
	r := pushRepo(t)
	if _, ok := runIn(t, r.Dir, binEnv(t), "git", "rev-parse", "-q", "--verify", "refs/remotes/origin/HEAD"); ok {
		t.Fatal("the repository has refs/remotes/origin/HEAD; the test proves nothing")
	}
	r.Git("checkout", "-q", "-b", "topic")
	r.Write(".small-hook.yml", "rules:\n  small/append-only: off\n")
	rewriteProgress(r)
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "relax the rules and rewrite")
	out, ok := pushOrigin(t, r, "topic")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("a new branch that brings its own configuration went through:\n%s", out)
	}
}

// TestFirstPushThroughPreCommitIgnoresThePushedConfiguration: pre-commit's
// pre-push stage names no range for a branch that holds the root commit;
// the whole history is judged, and not by the configuration the push
// brings (nothing before it is trusted: the built-in one applies).
func TestFirstPushThroughPreCommitIgnoresThePushedConfiguration(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", "rules:\n  small/append-only: off\n")
	rewriteProgress(r)
	r.Commit("relax the rules and rewrite")
	vars := map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_REMOTE_NAME": "origin", "PRE_COMMIT_REMOTE_URL": "/srv/origin.git",
		"PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main", "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main"}
	if code, out, errOut := r.check(vars, "check", "--ci"); code != exitFindings || !strings.Contains(out, "small/append-only") {
		t.Fatalf("a first push that brings its own configuration: exit %d\n%s%s", code, out, errOut)
	}
}

// TestPreCommitPushStageWithoutAPushChecksTheIndex: `pre-commit run
// --all-files --hook-stage push` runs the push hook with no range; it
// checks the staged change and every governed file of the index, as the
// commit stage does, instead of failing to find a range.
func TestPreCommitPushStageWithoutAPushChecksTheIndex(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	vars := map[string]string{"PRE_COMMIT": "1"}
	if code, out, errOut := r.check(vars, "check", "--ci"); code != exitOK {
		t.Fatalf("a clean index: exit %d\n%s%s", code, out, errOut)
	}
	r.Write(progressPath, strings.Replace(r.Read(progressPath), `small_version: "1.0.0"`, `small_version: "2.0"`, 1))
	r.Commit("a committed mistake")
	if code, out, errOut := r.check(vars, "check", "--ci"); code != exitFindings || !strings.Contains(out, "small/version") {
		t.Fatalf("a committed mistake: exit %d\n%s%s", code, out, errOut)
	}
}

// TestPushToAURL: git names the URL as the remote when a push names no
// configured remote; the pre-push hook judges the push from the root
// (nothing says what that repository has) instead of failing on a ref
// name made of the URL.
func TestPushToAURL(t *testing.T) {
	t.Parallel()
	r := pushRepo(t)
	other := filepath.Join(t.TempDir(), "other.git")
	r.Git("init", "-q", "--bare", other)
	out, ok := runIn(t, r.Dir, binEnv(t), "git", "push", "-q", other, "main")
	if !ok {
		t.Fatalf("a push to a URL:\n%s", out)
	}
	rewriteProgress(r)
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "a rewrite")
	out, ok = runIn(t, r.Dir, binEnv(t), "git", "push", "-q", other, "main")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("a rewrite pushed to a URL:\n%s", out)
	}
}
