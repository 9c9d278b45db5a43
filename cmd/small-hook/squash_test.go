package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// githubSquashMessage is GitHub's default squash message for the pull
// request of TestSquashOfAReviewedPullRequest.
const githubSquashMessage = "Refine the intent and record progress (#12)\n\n* Refine the intent\n\n* Record progress\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n\n---------\n\nCo-authored-by: Claude <noreply@anthropic.com>\n"

// TestSquashOfAReviewedPullRequest: a pull request of a human's intent
// edit and an agent's progress commit passes the pull request check;
// GitHub's "Squash and merge" of it then passes the push check on main,
// though GitHub lists the agent as a co-author: the squash is judged by
// who made it, its commits were judged on the pull request. The same
// message committed by anyone but GitHub, and GitHub's squash of an
// agent's pull request, are still an agent's.
func TestSquashOfAReviewedPullRequest(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	main := r.Git("rev-parse", "HEAD")
	r.Git("checkout", "-q", "-b", "topic")
	editIntent(r, "Refined by a human")
	r.Commit("Refine the intent")
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Commit("Record progress\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	if code, out, _ := r.check(nil, "check", "--base", main, "--head", "topic"); code != exitOK {
		t.Fatalf("the pull request check: exit %d\n%s", code, out)
	}
	squash := func(author, committer []string) {
		t.Helper()
		r.Git("checkout", "-q", "main")
		r.Git("reset", "-q", "--hard", main)
		r.Git("merge", "-q", "--squash", "topic")
		r.GitEnv(append(author, committer...), "commit", "-q", "--no-verify", "-m", githubSquashMessage)
	}
	github := []string{"GIT_COMMITTER_NAME=GitHub", "GIT_COMMITTER_EMAIL=noreply@github.com"}
	squash(nil, github)
	// The push-to-main workflow: --ci on GitHub's push event.
	payload := filepath.Join(t.TempDir(), "event.json")
	event := `{"ref": "refs/heads/main", "before": "` + main + `", "after": "` + r.Git("rev-parse", "HEAD") + `", "created": false, "deleted": false, "forced": false,
  "repository": {"full_name": "acme/project", "default_branch": "main"}, "pusher": {"name": "human"}}`
	if err := os.WriteFile(payload, []byte(event), 0o644); err != nil {
		t.Fatal(err)
	}
	push := map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": payload}
	if code, out, _ := r.check(push, "check", "--ci"); code != exitOK {
		t.Fatalf("the push check refuses GitHub's squash of the reviewed pull request: exit %d\n%s", code, out)
	}
	for name, who := range map[string][][]string{
		"the squash message committed by a human":    {nil, nil},
		"GitHub's squash of an agent's pull request": {{"GIT_AUTHOR_NAME=Copilot", "GIT_AUTHOR_EMAIL=198982749+Copilot@users.noreply.github.com"}, github},
	} {
		squash(who[0], who[1])
		code, out, _ := r.check(nil, "check", "--previous", main)
		if code != exitFindings || !strings.Contains(out, "small/ownership") {
			t.Errorf("%s: exit %d, want small/ownership\n%s", name, code, out)
		}
	}
}
