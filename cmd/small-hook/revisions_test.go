package main

import (
	"strings"
	"testing"
)

// agentIntentCommit commits an agent's edit of the human-owned intent,
// bypassing the hooks, and returns the repository.
func agentIntentCommit(t *testing.T) *testRepo {
	t.Helper()
	r := workspaceRepo(t)
	editIntent(r, "rewritten by an agent")
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	return r
}

// TestReflogBaseIsResolvedByGit: HEAD@{1} names the commit before the
// agent's, so the range holds the agent's commit. go-git's ResolveRevision
// dropped the @{1} and checked HEAD..HEAD: 0 commits, exit 0.
func TestReflogBaseIsResolvedByGit(t *testing.T) {
	t.Parallel()
	r := agentIntentCommit(t)
	code, out, errOut := r.check(nil, "check", "--base", "HEAD@{1}", "--format", "json")
	rep := decodeReport(t, out)
	if code != exitFindings || rep.Summary.Commits != 1 || !contains(rulesOf(rep), "small/ownership") {
		t.Fatalf("--base HEAD@{1}: exit %d, %d commits\n%s%s", code, rep.Summary.Commits, out, errOut)
	}
	// A reflog entry that does not exist is git's error, under the flag.
	code, _, errOut = r.check(nil, "check", "--base", "HEAD@{9}")
	if code != exitFailure || !strings.Contains(errOut, "--base") || !strings.Contains(errOut, "only has") {
		t.Fatalf("--base HEAD@{9}: exit %d, %q", code, errOut)
	}
}

// TestUpstreamBaseWithoutUpstreamIsAnError: main@{upstream} without an
// upstream is git's fatal error, never main..HEAD; with one, it is the
// upstream's commit.
func TestUpstreamBaseWithoutUpstreamIsAnError(t *testing.T) {
	t.Parallel()
	r := agentIntentCommit(t)
	code, out, errOut := r.check(nil, "check", "--base", "main@{upstream}")
	if code != exitFailure || !strings.Contains(errOut, "--base") || !strings.Contains(errOut, "no upstream") {
		t.Fatalf("--base main@{upstream} without an upstream: exit %d\n%s%s", code, out, errOut)
	}
	r.Git("remote", "add", "origin", r.Dir)
	r.Git("update-ref", "refs/remotes/origin/main", "HEAD~1")
	r.Git("branch", "-q", "--set-upstream-to", "origin/main")
	code, out, errOut = r.check(nil, "check", "--base", "main@{upstream}", "--format", "json")
	if code != exitFindings {
		t.Fatalf("--base main@{upstream}: exit %d\n%s%s", code, out, errOut)
	}
	if rep := decodeReport(t, out); rep.Summary.Commits != 1 {
		t.Fatalf("--base main@{upstream}: exit %d\n%s%s", code, out, errOut)
	}
}

// TestRevisionsAreNeverOptions: a revision that looks like an option is
// git's unknown revision, never an option of git rev-parse.
func TestRevisionsAreNeverOptions(t *testing.T) {
	t.Parallel()
	r := agentIntentCommit(t)
	for _, rev := range []string{"--all", "--git-dir", "-q"} {
		code, out, errOut := r.check(nil, "check", "--base="+rev)
		if code != exitFailure || !strings.Contains(errOut, "unknown revision") {
			t.Errorf("--base=%s: exit %d\n%s%s", rev, code, out, errOut)
		}
	}
}
