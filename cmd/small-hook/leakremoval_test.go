package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestALeakedTokenLeavesAPushedBranchAsTheAdviceSays: an agent's commit
// on a pushed, unmerged branch put a token in a progress entry; CI is red.
// A human follows the finding's advice exactly, through the installed
// hooks and without --no-verify: rebase to edit the commit, take the
// token out, mark the rewrite with an empty Small-Rewrite commit and push
// with --force-with-lease. The pre-push hook accepts the rewrite (a
// warning that records the reason), CI's pull request check of the
// rewritten branch passes, and the old commit is gone from it. The same
// rewrite pushed with an agent's marker is refused.
func TestALeakedTokenLeavesAPushedBranchAsTheAdviceSays(t *testing.T) {
	t.Parallel()
	r := pushRepo(t)
	r.Git("checkout", "-q", "-b", "feature")
	r.Write(progressPath, r.Read(progressPath)+progressEntry("deployed with "+fakeGitHub, 21))
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "deploy\n\n"+agentTrailer)
	leak := r.Git("rev-parse", "HEAD")
	r.Write("README.md", "docs\n")
	hookedCommit(r, "docs")
	if out, ok := runIn(t, r.Dir, binEnv(t), "git", "push", "-q", "--no-verify", "origin", "feature"); !ok {
		t.Fatal(out)
	}
	main := r.Git("rev-parse", "main")

	payload := filepath.Join(t.TempDir(), "event.json")
	ci := func() (int, string) {
		t.Helper()
		if err := os.WriteFile(payload, []byte(pullRequestEvent(main, r.Git("rev-parse", "HEAD"))), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := r.check(map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": payload}, "check", "--ci")
		return code, out + errOut
	}
	code, out := ci()
	if code != exitFindings || !strings.Contains(out, "secrets/github-pat") {
		t.Fatalf("CI on the leak: exit %d\n%s", code, out)
	}
	short := leak[:12]
	advice := "git rebase -i " + short + "~1, mark it edit, git reset --soft HEAD~1, remove it, commit, git rebase --continue"
	marker := "git commit --allow-empty -m \"<subject>\" -m \"Small-Rewrite: <reason>\"` and pushes with --force-with-lease"
	if !strings.Contains(out, advice) || !strings.Contains(out, marker) {
		t.Fatalf("the finding does not give the steps:\n%s", out)
	}

	// The steps, as the advice gives them.
	sequence := []string{"GIT_SEQUENCE_EDITOR=sed -i -e 's/^pick " + leak[:7] + "/edit " + leak[:7] + "/'"}
	r.GitEnv(sequence, "rebase", "-q", "-i", short+"~1")
	r.Git("reset", "-q", "--soft", "HEAD~1")
	r.Write(progressPath, strings.Replace(r.Read(progressPath), "deployed with "+fakeGitHub, "deployed", 1))
	hookedCommit(r, "deploy")
	r.GitEnv([]string{"GIT_EDITOR=true"}, "rebase", "--continue")
	rewritten := r.Git("rev-parse", "HEAD")

	agentMark := hookedCommit(r, "Remove the leaked token\n\nSmall-Rewrite: a token leaked\n"+agentTrailer)
	if out, ok := pushOrigin(t, r, "--force-with-lease", "feature"); ok || !strings.Contains(out, "Small-Rewrite: a token leaked is not enough") {
		t.Fatalf("the rewrite marked by an agent's commit went through:\n%s", out)
	}
	r.Git("reset", "-q", "--hard", rewritten)
	if agentMark == rewritten {
		t.Fatal("the agent's commit was not made")
	}

	hookedCommit(r, "Remove the leaked token from the branch\n\nSmall-Rewrite: a token leaked; rotated")
	out, ok := pushOrigin(t, r, "--force-with-lease", "feature")
	if !ok || !strings.Contains(out, "warning small/append-only") || !strings.Contains(out, "Small-Rewrite: a token leaked; rotated") {
		t.Fatalf("the human's rewrite was refused, or not recorded:\n%s", out)
	}
	if code, out := ci(); code != exitOK {
		t.Fatalf("CI on the rewritten branch: exit %d\n%s", code, out)
	}
	if _, err := r.Try("merge-base", "--is-ancestor", leak, "refs/remotes/origin/feature"); err == nil {
		t.Fatal("the pushed branch still holds the leak")
	}
	if regexp.MustCompile(regexp.QuoteMeta(fakeGitHub)).MatchString(r.Git("log", "-p", "refs/remotes/origin/feature")) {
		t.Fatal("the pushed branch's history still shows the token")
	}
}
