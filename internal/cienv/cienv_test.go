package cienv

import (
	"fmt"
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
		{"github push to the default branch: the tip it replaced", onGitHub("push", pushPayload(t, "refs/heads/main", false)), Range{Base: pushBefore, Head: head, Source: "GitHub push", Previous: true}, ""},
		{"github forced push to the default branch", onGitHub("push", pushPayload(t, "refs/heads/main", true)), Range{Base: pushBefore, Head: head, Source: "GitHub forced push", Previous: true}, ""},
		{"github push to a protected branch: the tip it replaced", with(onGitHub("push", "push.json"), "GITHUB_REF_PROTECTED", "true"), Range{Base: pushBefore, Head: head, Source: "GitHub push", Previous: true}, ""},
		{"github push to another branch: the whole branch", with(onGitHub("push", "push.json"), "GITHUB_REF_PROTECTED", "false"),
			Range{Base: "refs/remotes/origin/main", Head: head, Source: "GitHub push to a branch that is not main or protected: the whole branch"}, ""},
		{"github forced push to another branch: the whole branch", onGitHub("push", pushPayload(t, "refs/heads/agent/task-7", true)),
			Range{Base: "refs/remotes/origin/main", Head: head, Source: "GitHub push to a branch that is not main or protected: the whole branch"}, ""},
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
		{"gitlab push to the default branch: the tip it replaced", gitLab("CI_COMMIT_BEFORE_SHA", pushBefore, "CI_COMMIT_BRANCH", "main"), Range{Base: pushBefore, Head: head, Source: "GitLab push", Previous: true}, ""},
		{"gitlab push to a protected branch: the tip it replaced", gitLab("CI_COMMIT_BEFORE_SHA", pushBefore, "CI_COMMIT_REF_PROTECTED", "true"), Range{Base: pushBefore, Head: head, Source: "GitLab push", Previous: true}, ""},
		{"gitlab push to another branch: the whole branch", gitLab("CI_COMMIT_BEFORE_SHA", pushBefore, "CI_COMMIT_REF_PROTECTED", "false"),
			Range{Base: "refs/remotes/origin/main", Head: head, Source: "GitLab push to a branch that is not main or protected: the whole branch"}, ""},
		{"gitlab tag pipeline: from the default branch", gitLab("CI_COMMIT_BEFORE_SHA", pushBefore, "CI_COMMIT_BRANCH", "", "CI_COMMIT_TAG", "v1"),
			Range{Base: "refs/remotes/origin/main", Head: head, Source: "GitLab push to a branch that is not main or protected: the whole branch"}, ""},
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

// pushPayload writes push.json with the ref and "forced" given and returns
// its path.
func pushPayload(t *testing.T, ref string, forced bool) string {
	t.Helper()
	data, err := os.ReadFile(events + "push.json")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), `"ref": "refs/heads/agent/task-7"`, `"ref": "`+ref+`"`, 1)
	text = strings.Replace(text, `"forced": false`, fmt.Sprintf(`"forced": %v`, forced), 1)
	if !strings.Contains(text, `"ref": "`+ref+`"`) || !strings.Contains(text, fmt.Sprintf(`"forced": %v`, forced)) {
		t.Fatal("push.json no longer says \"ref\": \"refs/heads/agent/task-7\" and \"forced\": false")
	}
	path := filepath.Join(t.TempDir(), "push.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
