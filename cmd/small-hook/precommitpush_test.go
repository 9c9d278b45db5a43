package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/push"
)

// newRemoteRepo is the push of issue 30: origin's main holds an old
// rewrite (committed and pushed with --no-verify long ago), "fork" is a
// remote just added (an empty bare repository, never fetched), and branch
// feature2 adds one clean commit to main. No hook is installed.
func newRemoteRepo(t *testing.T) *testRepo {
	t.Helper()
	r := workspaceRepo(t)
	origin, fork := filepath.Join(t.TempDir(), "origin.git"), filepath.Join(t.TempDir(), "fork.git")
	r.Git("init", "-q", "--bare", origin)
	r.Git("init", "-q", "--bare", fork)
	r.Git("remote", "add", "origin", origin)
	rewriteProgress(r)
	r.Commit("an old rewrite")
	r.Git("push", "-q", "origin", "main")
	r.Git("remote", "add", "fork", fork)
	r.Git("checkout", "-q", "-b", "feature2")
	r.Write("README.md", "docs\n")
	r.Commit("docs")
	return r
}

// preCommitPushEnv is the environment pre-commit's pre-push stage gives its
// hooks for a push of branch to remote that names no range.
func preCommitPushEnv(remote, branch string) map[string]string {
	return map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_REMOTE_NAME": remote, "PRE_COMMIT_REMOTE_URL": "/srv/" + remote + ".git",
		"PRE_COMMIT_LOCAL_BRANCH": "refs/heads/" + branch, "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/" + branch}
}

// prePushVerdict is the native pre-push hook's verdict on a push of
// branch to remote, as a new ref: its exit code, commits and findings.
func prePushVerdict(t *testing.T, r *testRepo, remote, branch string) string {
	t.Helper()
	id := r.Git("rev-parse", "refs/heads/"+branch)
	line := fmt.Sprintf("refs/heads/%s %s refs/heads/%s %s\n", branch, id, branch, push.ZeroID)
	code, out, errOut := r.checkInput(line, "check", "--pre-push", remote, "--format", "json")
	return verdictOf(t, code, out, errOut)
}

// verdictOf renders a JSON check's exit code, commits and findings.
func verdictOf(t *testing.T, code int, out, errOut string) string {
	t.Helper()
	if code == exitFailure {
		return "exit 2: " + errOut
	}
	rep := decodeReport(t, out)
	var lines []string
	for _, f := range rep.Findings {
		lines = append(lines, fmt.Sprintf("%s %s:%d %s", f.Rule, f.Path, f.Line, f.Commit))
	}
	sort.Strings(lines)
	return fmt.Sprintf("exit %d, %d commits\n%s", code, rep.Summary.Commits, strings.Join(lines, "\n"))
}

// TestPreCommitPushToANewRemoteIsJudgedAsThePrePushHookJudgesIt: pushed
// to a remote just added, pre-commit's pre-push stage names no range, only
// the remote and the ref; the check judges what the push adds as the
// native pre-push hook does (the same planning), not the whole history
// from the root with the built-in configuration — neither a clean branch
// nor an agent's edit of the intent on it.
func TestPreCommitPushToANewRemoteIsJudgedAsThePrePushHookJudgesIt(t *testing.T) {
	t.Parallel()
	r := newRemoteRepo(t)
	judge := func(branch string) (string, string) {
		code, out, errOut := r.check(preCommitPushEnv("fork", branch), "check", "--ci", "--format", "json")
		return verdictOf(t, code, out, errOut), prePushVerdict(t, r, "fork", branch)
	}
	if got, want := judge("feature2"); got != want {
		t.Errorf("a clean one-commit branch to a new remote:\n%s\nwant the pre-push hook's verdict:\n%s", got, want)
	}
	r.Git("checkout", "-q", "-b", "agent")
	editIntent(r, "an agent's intent")
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	got, want := judge("agent")
	if got != want || !strings.Contains(got, "small/ownership") {
		t.Errorf("an agent's edit of the intent pushed to a new remote:\n%s\nwant the pre-push hook's verdict, with small/ownership:\n%s", got, want)
	}
}
