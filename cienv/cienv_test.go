package cienv

import (
	"strings"
	"testing"
)

// The commits the payloads in ../testdata/report/github-events name.
const (
	prBase     = "9c1b2a3d4e5f60718293a4b5c6d7e8f901234567"
	head       = "4f3e2d1c0b0a99887766554433221100ffeeddcc"
	pushBefore = "7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b"
	zeroSHA    = "0000000000000000000000000000000000000000"
	events     = "../testdata/report/github-events/"
)

// onGitHub is the environment of a GitHub Actions job started by event,
// whose payload is the test file payload.
func onGitHub(event, payload string) map[string]string {
	return map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": events + payload, "GITHUB_SHA": head}
}

func TestDetect(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want Range
		err  string // part of the error; empty when none is expected
	}{
		{"explicit base", map[string]string{"SMALL_HOOK_BASE": "main"}, Range{"main", "HEAD", "SMALL_HOOK_BASE"}, ""},
		{"explicit base and head", map[string]string{"SMALL_HOOK_BASE": "a", "SMALL_HOOK_HEAD": "b"}, Range{"a", "b", "SMALL_HOOK_BASE"}, ""},
		{"explicit base wins over CI", with(onGitHub("push", "push.json"), "SMALL_HOOK_BASE", "v1.0"), Range{"v1.0", "HEAD", "SMALL_HOOK_BASE"}, ""},
		{"pre-commit", map[string]string{"PRE_COMMIT_FROM_REF": prBase, "PRE_COMMIT_TO_REF": head}, Range{prBase, head, "pre-commit"}, ""},
		{"pre-commit first push", map[string]string{"PRE_COMMIT_REMOTE_NAME": "origin", "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main"}, Range{"", "refs/heads/main", "pre-commit, first push"}, ""},
		{"pre-commit wins over CI", with(onGitHub("push", "push.json"), "PRE_COMMIT_FROM_REF", prBase), Range{prBase, "HEAD", "pre-commit"}, ""},
		{"github pull_request", onGitHub("pull_request", "pull_request.json"), Range{prBase, head, "GitHub pull_request"}, ""},
		{"github pull_request_target", onGitHub("pull_request_target", "pull_request_target.json"), Range{prBase, head, "GitHub pull_request_target"}, ""},
		{"github push", onGitHub("push", "push.json"), Range{pushBefore, head, "GitHub push"}, ""},
		{"github push of a new branch", onGitHub("push", "push-new-branch.json"), Range{"origin/main", head, "GitHub push of a new branch"}, ""},
		{"github push of a new default branch", onGitHub("push", "push-new-default-branch.json"), Range{}, "default branch main"},
		{"github merge_group", onGitHub("merge_group", "merge_group.json"), Range{prBase, head, "GitHub merge_group"}, ""},
		{"github unsupported event", onGitHub("workflow_dispatch", "workflow_dispatch.json"), Range{}, `"workflow_dispatch"`},
		{"github pull_request with a push payload", onGitHub("pull_request", "push.json"), Range{}, "push.json has no pull_request.base.sha"},
		{"github merge_group with a push payload", onGitHub("merge_group", "push.json"), Range{}, "push.json has no merge_group.base_sha"},
		{"github push with a pull_request payload", onGitHub("push", "pull_request.json"), Range{}, "pull_request.json has no after commit"},
		{"github broken payload", onGitHub("pull_request", "broken.json"), Range{}, "broken.json is not valid JSON"},
		{"github missing payload", onGitHub("pull_request", "absent.json"), Range{}, "absent.json"},
		{"github without payload", with(onGitHub("push", ""), "GITHUB_EVENT_PATH", ""), Range{}, "GITHUB_EVENT_PATH"},
		{"gitlab merge request", gitLab("CI_MERGE_REQUEST_DIFF_BASE_SHA", prBase, "CI_COMMIT_BEFORE_SHA", zeroSHA), Range{prBase, head, "GitLab merge request"}, ""},
		{"gitlab push", gitLab("CI_COMMIT_BEFORE_SHA", pushBefore), Range{pushBefore, head, "GitLab push"}, ""},
		{"gitlab push of a new branch", gitLab("CI_COMMIT_BEFORE_SHA", zeroSHA), Range{"origin/main", head, "GitLab push of a new branch"}, ""},
		{"gitlab new default branch", gitLab("CI_COMMIT_BEFORE_SHA", zeroSHA, "CI_COMMIT_BRANCH", "main"), Range{}, "new default branch main"},
		{"gitlab without default branch", gitLab("CI_COMMIT_BEFORE_SHA", zeroSHA, "CI_DEFAULT_BRANCH", ""), Range{}, "CI_DEFAULT_BRANCH"},
		{"github but not true", map[string]string{"GITHUB_ACTIONS": "1"}, Range{}, "set SMALL_HOOK_BASE"},
		{"nothing", map[string]string{"CI": "true"}, Range{}, "set SMALL_HOOK_BASE"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Detect(func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %+v, error %v; want an error containing %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, error %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// gitLab is the environment of a GitLab CI job on branch feature of a
// project whose default branch is main, with kv (key, value, ...) added.
func gitLab(kv ...string) map[string]string {
	env := map[string]string{"CI": "true", "GITLAB_CI": "true", "CI_COMMIT_SHA": head, "CI_COMMIT_BRANCH": "feature", "CI_DEFAULT_BRANCH": "main"}
	for i := 0; i+1 < len(kv); i += 2 {
		env[kv[i]] = kv[i+1]
	}
	return env
}

// with returns env with key set to value.
func with(env map[string]string, key, value string) map[string]string {
	env[key] = value
	return env
}
