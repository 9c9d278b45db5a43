package cienv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The commits the payloads in ../testdata/report/github-events name.
const (
	prBase     = "9c1b2a3d4e5f60718293a4b5c6d7e8f901234567"
	head       = "4f3e2d1c0b0a99887766554433221100ffeeddcc"
	pushBefore = "7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b"
	zeroSHA    = "0000000000000000000000000000000000000000"
	events     = "../../testdata/report/github-events/"
)

// onGitHub is the environment of a GitHub Actions job started by event,
// whose payload is the test file payload (or the file at an absolute path).
func onGitHub(event, payload string) map[string]string {
	if !filepath.IsAbs(payload) {
		payload = events + payload
	}
	return map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": event, "GITHUB_EVENT_PATH": payload, "GITHUB_SHA": head}
}

func TestDetect(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want Range
		err  string // part of the error; empty when none is expected
	}{
		{"explicit base", map[string]string{"SMALL_HOOK_BASE": "main"}, Range{Base: "main", Head: "HEAD", Source: "SMALL_HOOK_BASE"}, ""},
		{"explicit base and head", map[string]string{"SMALL_HOOK_BASE": "a", "SMALL_HOOK_HEAD": "b"}, Range{Base: "a", Head: "b", Source: "SMALL_HOOK_BASE"}, ""},
		{"explicit base wins over CI", with(onGitHub("push", "push.json"), "SMALL_HOOK_BASE", "v1.0"), Range{Base: "v1.0", Head: "HEAD", Source: "SMALL_HOOK_BASE"}, ""},
		{"pre-commit run --from-ref --to-ref", map[string]string{"PRE_COMMIT_FROM_REF": prBase, "PRE_COMMIT_TO_REF": head}, Range{Base: prBase, Head: head, Source: "pre-commit"}, ""},
		{"pre-commit pre-push: the remote branch's tip", preCommitPush("PRE_COMMIT_FROM_REF", pushBefore, "PRE_COMMIT_TO_REF", head),
			Range{Base: pushBefore, Head: head, Source: "pre-commit pre-push", Previous: true}, ""},
		{"pre-commit pre-push without a range: the pushed ref", preCommitPush(),
			Range{Push: Push{Remote: "origin", LocalRef: "refs/heads/main", RemoteRef: "refs/heads/main"}, Source: "pre-commit pre-push"}, ""},
		{"pre-commit run --all-files --hook-stage push: the index", map[string]string{"PRE_COMMIT": "1"}, Range{Index: true, Source: "pre-commit, no push"}, ""},
		{"pre-commit without a push wins over CI", with(onGitHub("push", "push.json"), "PRE_COMMIT", "1"), Range{Index: true, Source: "pre-commit, no push"}, ""},
		{"pre-commit wins over CI", with(onGitHub("push", "push.json"), "PRE_COMMIT_FROM_REF", prBase), Range{Base: prBase, Head: "HEAD", Source: "pre-commit"}, ""},
		{"github pull_request: a base, not a previous tip", onGitHub("pull_request", "pull_request.json"), Range{Base: prBase, Head: head, Source: "GitHub pull_request"}, ""},
		{"github pull_request_target", onGitHub("pull_request_target", "pull_request_target.json"), Range{Base: prBase, Head: head, Source: "GitHub pull_request_target"}, ""},
		{"github push: the tip it replaced", onGitHub("push", "push.json"), Range{Base: pushBefore, Head: head, Source: "GitHub push", Previous: true}, ""},
		{"github forced push", onGitHub("push", forcedPush(t)), Range{Base: pushBefore, Head: head, Source: "GitHub forced push", Previous: true}, ""},
		{"github push of a new branch", onGitHub("push", "push-new-branch.json"), Range{Base: "refs/remotes/origin/main", Head: head, Source: "GitHub push of a new branch"}, ""},
		{"github push of a new default branch: the whole history", onGitHub("push", "push-new-default-branch.json"), Range{Head: head, Source: "GitHub push that created the default branch main"}, ""},
		{"github merge_group", onGitHub("merge_group", "merge_group.json"), Range{Base: prBase, Head: head, Source: "GitHub merge_group"}, ""},
		{"github unsupported event", onGitHub("workflow_dispatch", "workflow_dispatch.json"), Range{}, `"workflow_dispatch"`},
		{"github pull_request with a push payload", onGitHub("pull_request", "push.json"), Range{}, "push.json has no pull_request.base.sha"},
		{"github merge_group with a push payload", onGitHub("merge_group", "push.json"), Range{}, "push.json has no merge_group.base_sha"},
		{"github push with a pull_request payload", onGitHub("push", "pull_request.json"), Range{}, "pull_request.json has no after commit"},
		{"github broken payload", onGitHub("pull_request", "broken.json"), Range{}, "broken.json is not valid JSON"},
		{"github missing payload", onGitHub("pull_request", "absent.json"), Range{}, "absent.json"},
		{"github without payload", with(onGitHub("push", ""), "GITHUB_EVENT_PATH", ""), Range{}, "GITHUB_EVENT_PATH"},
		{"gitlab merge request", gitLab("CI_MERGE_REQUEST_DIFF_BASE_SHA", prBase, "CI_COMMIT_BEFORE_SHA", zeroSHA), Range{Base: prBase, Head: head, Source: "GitLab merge request"}, ""},
		{"gitlab push: the tip it replaced", gitLab("CI_COMMIT_BEFORE_SHA", pushBefore), Range{Base: pushBefore, Head: head, Source: "GitLab push", Previous: true}, ""},
		{"gitlab push of a new branch", gitLab("CI_COMMIT_BEFORE_SHA", zeroSHA), Range{Base: "refs/remotes/origin/main", Head: head, Source: "GitLab push of a new branch"}, ""},
		{"gitlab new default branch: the whole history", gitLab("CI_COMMIT_BEFORE_SHA", zeroSHA, "CI_COMMIT_BRANCH", "main"), Range{Head: head, Source: "GitLab push that created the default branch main"}, ""},
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

// preCommitPush is the environment pre-commit's pre-push stage gives a
// hook pushing main to origin, with kv (key, value, ...) added.
func preCommitPush(kv ...string) map[string]string {
	env := map[string]string{"PRE_COMMIT_REMOTE_NAME": "origin", "PRE_COMMIT_REMOTE_URL": "/srv/origin.git",
		"PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main", "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main"}
	for i := 0; i+1 < len(kv); i += 2 {
		env[kv[i]] = kv[i+1]
	}
	return env
}

// forcedPush writes push.json with "forced": true and returns its path.
func forcedPush(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(events + "push.json")
	if err != nil {
		t.Fatal(err)
	}
	forced := strings.Replace(string(data), `"forced": false`, `"forced": true`, 1)
	if forced == string(data) {
		t.Fatal("push.json no longer says \"forced\": false")
	}
	path := filepath.Join(t.TempDir(), "push-forced.json")
	if err := os.WriteFile(path, []byte(forced), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
