package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/push"
)

// pushEvent is GitHub's push event for a branch moved from before (all
// zeros: created) to after, in a repository whose default branch is main.
func pushEvent(branch, before, after string, forced bool) string {
	return fmt.Sprintf(`{"ref": "refs/heads/%s", "before": "%s", "after": "%s", "created": %v, "deleted": false, "forced": %v,
  "repository": {"full_name": "acme/project", "default_branch": "main"}, "pusher": {"name": "agent"}}`, branch, before, after, before == push.ZeroID, forced)
}

// eventFile writes a GitHub event payload and returns its path.
func eventFile(t *testing.T, payload string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(path, []byte(payload), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// workspaceClone returns a workspace repository, a bare clone of it (the
// remote) and a clone of the remote.
func workspaceClone(t *testing.T) (origin *testRepo, remote string, clone *testRepo) {
	t.Helper()
	origin = workspaceRepo(t)
	remote = filepath.Join(t.TempDir(), "remote.git")
	origin.Git("clone", "-q", "--bare", origin.Dir, remote)
	clone = repoAt(t, filepath.Join(t.TempDir(), "clone"))
	origin.Git("clone", "-q", remote, clone.Dir)
	return origin, remote, clone
}

// TestTagCannotShadowTheBaseOfANewBranch: CI on a push that creates a
// branch compares it with the default branch. A tag named origin/main,
// pointing at the pushed branch, is what git (and go-git) would take for
// the short name origin/main; the base is the full name
// refs/remotes/origin/main, so the branch's rewrite is still judged.
func TestTagCannotShadowTheBaseOfANewBranch(t *testing.T) {
	t.Parallel()
	_, _, clone := workspaceClone(t)
	clone.Git("checkout", "-q", "-b", "feature")
	rewriteProgress(clone)
	head := clone.Commit("rewrite an entry")
	clone.Git("tag", "origin/main", head)

	vars := map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": eventFile(t, pushEvent("feature", push.ZeroID, head, false))}
	code, out, errOut := clone.check(vars, "check", "--ci", "--format", "json")
	rep := decodeReport(t, out)
	if code != exitFindings || rep.Summary.Commits != 1 || !contains(rulesOf(rep), "small/append-only") {
		t.Fatalf("exit %d, %d commits\n%s%s", code, rep.Summary.Commits, out, errOut)
	}

	gitlab := map[string]string{"CI": "true", "GITLAB_CI": "true", "CI_COMMIT_SHA": head, "CI_COMMIT_BEFORE_SHA": strings.Repeat("0", 40),
		"CI_COMMIT_BRANCH": "feature", "CI_DEFAULT_BRANCH": "main"}
	code, out, errOut = clone.check(gitlab, "check", "--ci", "--format", "json")
	if rep := decodeReport(t, out); code != exitFindings || rep.Summary.Commits != 1 {
		t.Fatalf("GitLab: exit %d, %d commits\n%s%s", code, rep.Summary.Commits, out, errOut)
	}
}

// TestNewBranchThroughTheAction: a checkout of the pushed branch alone
// has no refs/remotes/origin/main; the Action fetches it under that name,
// and the new branch's rewrite is judged against it.
func TestNewBranchThroughTheAction(t *testing.T) {
	r := workspaceRepo(t)
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("clone", "-q", "--bare", r.Dir, remote)
	r.Git("checkout", "-q", "-b", "feature")
	rewriteProgress(r)
	head := r.Commit("rewrite an entry")
	r.Git("push", "-q", remote, "feature")
	checkout := filepath.Join(t.TempDir(), "checkout")
	r.Git("clone", "-q", "--no-local", "--single-branch", "-b", "feature", remote, checkout)
	run := runAction(t, checkout, nil, "push", pushEvent("feature", push.ZeroID, head, false))
	if run.outputs["exit-code"] != "1" || !strings.Contains(run.log, "small/append-only") {
		t.Fatalf("the Action did not judge the new branch against main (exit-code %q):\n%s", run.outputs["exit-code"], run.log)
	}
}

// TestPushSemanticsNameTheirStage: --previous and --history are range
// checks (what the pre-push hook and CI run); their summary and errors
// say so, not "pre-commit stage", and a range that touches nothing
// governed still prints what it checked.
func TestPushSemanticsNameTheirStage(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	base := r.Git("rev-parse", "HEAD")
	r.Write("README.md", "docs\n")
	r.Commit("docs")
	for _, c := range []struct {
		args  []string
		stage string
	}{{[]string{"--previous", base}, "push check"}, {[]string{"--history"}, "history check"}} {
		code, out, errOut := r.check(nil, append([]string{"check"}, c.args...)...)
		if code != exitOK || !strings.Contains(out, "small-hook ("+c.stage+")") {
			t.Errorf("%v: exit %d\n%s%s", c.args, code, out, errOut)
		}
	}
}

// TestCIJudgesAFeatureBranchFromItsMergeBase: on a feature branch, the
// previous tip is whatever the last push left, judged or not. Push 1
// turns small/append-only off and rewrites an entry (its pipeline red, or
// skipped with git push -o ci.skip); push 2 adds one harmless commit. The
// pipeline of push 2 judges the whole branch from its merge base with
// main, with main's configuration: red. On a protected branch (the
// platform keeps agents from moving it) the previous tip stays the base.
func TestCIJudgesAFeatureBranchFromItsMergeBase(t *testing.T) {
	t.Parallel()
	origin, remote, clone := workspaceClone(t)
	clone.Git("checkout", "-q", "-b", "feature")
	clone.Write(".small-hook.yml", "rules:\n  small/append-only: off\n")
	rewriteProgress(clone)
	first := clone.Commit("push 1: relax the rules and rewrite an entry")
	clone.Write("README.md", "docs\n")
	second := clone.Commit("push 2: harmless")
	clone.Git("push", "-q", "origin", "feature")

	gitlab := map[string]string{"CI": "true", "GITLAB_CI": "true", "CI_COMMIT_SHA": second, "CI_COMMIT_BEFORE_SHA": first,
		"CI_COMMIT_BRANCH": "feature", "CI_DEFAULT_BRANCH": "main", "CI_COMMIT_REF_PROTECTED": "false"}
	github := map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": eventFile(t, pushEvent("feature", first, second, false)), "GITHUB_REF_PROTECTED": "false"}
	for name, vars := range map[string]map[string]string{"GitLab": gitlab, "GitHub": github} {
		code, out, errOut := clone.check(vars, "check", "--ci", "--format", "json")
		rep := decodeReport(t, out)
		if code != exitFindings || rep.Summary.Commits != 2 || !contains(rulesOf(rep), "small/append-only") {
			t.Errorf("%s: the pipeline of push 2: exit %d, %d commits\n%s%s", name, code, rep.Summary.Commits, out, errOut)
		}
	}

	gitlab["CI_COMMIT_REF_PROTECTED"] = "true"
	if code, out, errOut := clone.check(gitlab, "check", "--ci", "--format", "json"); code != exitOK || decodeReport(t, out).Summary.Commits != 1 {
		t.Errorf("a protected branch: want the push alone judged: exit %d\n%s%s", code, out, errOut)
	}

	checkout := filepath.Join(t.TempDir(), "checkout")
	origin.Git("clone", "-q", "--no-local", "--single-branch", "-b", "feature", remote, checkout)
	run := runAction(t, checkout, nil, "push", pushEvent("feature", first, second, false))
	if run.outputs["exit-code"] != "1" || !strings.Contains(run.log, "small/append-only") {
		t.Fatalf("the Action judged only push 2 (exit-code %q):\n%s", run.outputs["exit-code"], run.log)
	}
}
