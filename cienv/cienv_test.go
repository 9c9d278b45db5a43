package cienv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	sha1    = "1111111111111111111111111111111111111111"
	sha2    = "2222222222222222222222222222222222222222"
	zeroSHA = "0000000000000000000000000000000000000000"
)

func TestDetect(t *testing.T) {
	dir := t.TempDir()
	event := func(name, body string) string {
		p := filepath.Join(dir, name+".json")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pr := event("pr", `{"action":"synchronize","number":3,"pull_request":{"base":{"ref":"main","sha":"`+sha1+`"},"head":{"ref":"f","sha":"`+sha2+`"}},"repository":{"default_branch":"main"}}`)
	push := event("push", `{"ref":"refs/heads/f","before":"`+sha1+`","after":"`+sha2+`","repository":{"default_branch":"main"}}`)
	newBranch := event("new", `{"ref":"refs/heads/f","before":"`+zeroSHA+`","after":"`+sha2+`","repository":{"default_branch":"main"}}`)
	newMain := event("newmain", `{"ref":"refs/heads/main","before":"`+zeroSHA+`","after":"`+sha2+`","repository":{"default_branch":"main"}}`)
	group := event("group", `{"merge_group":{"base_sha":"`+sha1+`","head_sha":"`+sha2+`"}}`)
	broken := event("broken", `{"pull_request":`)

	cases := []struct {
		name string
		env  map[string]string
		want Range
		err  string
	}{
		{"explicit", map[string]string{"SMALL_HOOK_BASE": "main", "GITHUB_ACTIONS": "true"}, Range{"main", "HEAD", "SMALL_HOOK_BASE"}, ""},
		{"explicit head", map[string]string{"SMALL_HOOK_BASE": "a", "SMALL_HOOK_HEAD": "b"}, Range{"a", "b", "SMALL_HOOK_BASE"}, ""},
		{"pre-commit", map[string]string{"PRE_COMMIT_FROM_REF": sha1, "PRE_COMMIT_TO_REF": sha2}, Range{sha1, sha2, "pre-commit"}, ""},
		{"github pull request", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": pr}, Range{sha1, sha2, "GitHub pull_request"}, ""},
		{"github push", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": push}, Range{sha1, sha2, "GitHub push"}, ""},
		{"github new branch", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": newBranch}, Range{"origin/main", sha2, "GitHub push (new branch, against main)"}, ""},
		{"github new default branch", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": newMain}, Range{}, "no base"},
		{"github merge group", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "merge_group", "GITHUB_EVENT_PATH": group}, Range{sha1, sha2, "GitHub merge_group"}, ""},
		{"github unsupported event", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "schedule", "GITHUB_EVENT_PATH": push}, Range{}, `"schedule"`},
		{"github broken payload", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": broken}, Range{}, "broken.json"},
		{"github missing payload", map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": filepath.Join(dir, "none.json")}, Range{}, "none.json"},
		{"gitlab merge request", map[string]string{"GITLAB_CI": "true", "CI_MERGE_REQUEST_DIFF_BASE_SHA": sha1, "CI_COMMIT_SHA": sha2}, Range{sha1, sha2, "GitLab merge request"}, ""},
		{"gitlab push", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_BEFORE_SHA": sha1, "CI_COMMIT_SHA": sha2}, Range{sha1, sha2, "GitLab push"}, ""},
		{"gitlab new branch", map[string]string{"GITLAB_CI": "true", "CI_COMMIT_BEFORE_SHA": zeroSHA, "CI_COMMIT_SHA": sha2, "CI_DEFAULT_BRANCH": "main", "CI_COMMIT_BRANCH": "f"}, Range{"origin/main", sha2, "GitLab push (new branch, against main)"}, ""},
		{"nothing", map[string]string{}, Range{}, "SMALL_HOOK_BASE"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Detect(func(k string) string { return tc.env[k] })
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}
