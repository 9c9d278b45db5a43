package cienv

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
)

// githubEvent holds the parts of GitHub's event payloads that name a range.
type githubEvent struct {
	Before      string `json:"before"`
	After       string `json:"after"`
	Ref         string `json:"ref"`
	Forced      bool   `json:"forced"`
	PullRequest *struct {
		Base struct {
			SHA string `json:"sha"`
		} `json:"base"`
		Head struct {
			SHA string `json:"sha"`
		} `json:"head"`
	} `json:"pull_request"`
	MergeGroup *struct {
		BaseSHA string `json:"base_sha"`
		HeadSHA string `json:"head_sha"`
	} `json:"merge_group"`
	Repository struct {
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
}

// github reads the range from the payload of the GitHub Actions event that
// started the workflow.
func github(getenv func(string) string) (Range, error) {
	name := getenv("GITHUB_EVENT_NAME")
	path := getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return Range{}, errors.New("GitHub Actions without GITHUB_EVENT_PATH: set SMALL_HOOK_BASE")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Range{}, fmt.Errorf("reading the GitHub event payload: %w", err)
	}
	var ev githubEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return Range{}, fmt.Errorf("GitHub event payload %s is not valid JSON: %w", path, err)
	}
	source := "GitHub " + name
	switch name {
	case "pull_request", "pull_request_target", "pull_request_review":
		if ev.PullRequest == nil || ev.PullRequest.Base.SHA == "" || ev.PullRequest.Head.SHA == "" {
			return Range{}, fmt.Errorf("GitHub %s payload %s has no pull_request.base.sha and pull_request.head.sha", name, path)
		}
		return Range{Base: ev.PullRequest.Base.SHA, Head: ev.PullRequest.Head.SHA, Source: source}, nil
	case "merge_group":
		if ev.MergeGroup == nil || ev.MergeGroup.BaseSHA == "" || ev.MergeGroup.HeadSHA == "" {
			return Range{}, fmt.Errorf("GitHub merge_group payload %s has no merge_group.base_sha and merge_group.head_sha", path)
		}
		return Range{Base: ev.MergeGroup.BaseSHA, Head: ev.MergeGroup.HeadSHA, Source: source}, nil
	case "push":
		return githubPush(ev, path, getenv("GITHUB_REF_PROTECTED") == "true")
	}
	return Range{}, fmt.Errorf("GitHub event %q names no commit range: run on pull_request, pull_request_target, merge_group or push, or set SMALL_HOOK_BASE", name)
}

// githubPush is the range of a push: to the default branch or a
// protected one (protected says GitHub's GITHUB_REF_PROTECTED is true),
// before..after, before being the tip the push replaced; to any other
// branch, and for a new branch (before all zeros), the default
// branch..after, whose merge base the range walk finds, so that the whole
// branch is judged (see Range.Previous); for the push that created the
// default branch, every commit of after.
func githubPush(ev githubEvent, path string, protected bool) (Range, error) {
	if ev.After == "" || isZero(ev.After) {
		return Range{}, fmt.Errorf("GitHub push payload %s has no after commit (a deleted branch has nothing to check)", path)
	}
	branch := ev.Repository.DefaultBranch
	pushed := ev.Before != "" && !isZero(ev.Before)
	if pushed && (ev.Ref == "refs/heads/"+branch && branch != "" || protected) {
		source := "GitHub push"
		if ev.Forced {
			source = "GitHub forced push"
		}
		return Range{Base: ev.Before, Head: ev.After, Source: source, Previous: true}, nil
	}
	if branch == "" {
		return Range{}, fmt.Errorf("GitHub push payload %s has no repository.default_branch to compare the branch with: set SMALL_HOOK_BASE", path)
	}
	switch {
	case pushed:
		return Range{Base: "refs/remotes/origin/" + branch, Head: ev.After, Source: "GitHub push to a branch that is not " + branch + " or protected: the whole branch"}, nil
	case ev.Ref == "refs/heads/"+branch:
		return Range{Head: ev.After, Source: "GitHub push that created the default branch " + branch}, nil
	}
	return Range{Base: "refs/remotes/origin/" + branch, Head: ev.After, Source: "GitHub push of a new branch"}, nil
}
