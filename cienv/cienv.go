// Package cienv finds the range of commits a CI run should check from the
// environment the CI system sets: GitHub Actions, GitLab CI, the
// pre-commit framework, or SMALL_HOOK_BASE/SMALL_HOOK_HEAD.
package cienv

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// Range is the commits to check: those reachable from Head and not from
// Base. Source says where it was found, for the report.
type Range struct {
	Base, Head, Source string
}

// Detect reads the environment through getenv (os.Getenv in production)
// and, on GitHub Actions, the event payload it names.
func Detect(getenv func(string) string) (Range, error) {
	switch {
	case getenv("SMALL_HOOK_BASE") != "":
		return Range{Base: getenv("SMALL_HOOK_BASE"), Head: or(getenv("SMALL_HOOK_HEAD"), "HEAD"), Source: "SMALL_HOOK_BASE"}, nil
	case getenv("PRE_COMMIT_FROM_REF") != "":
		return Range{Base: getenv("PRE_COMMIT_FROM_REF"), Head: or(getenv("PRE_COMMIT_TO_REF"), "HEAD"), Source: "pre-commit"}, nil
	case getenv("GITHUB_ACTIONS") == "true":
		return github(getenv)
	case getenv("GITLAB_CI") == "true":
		return gitlab(getenv)
	}
	return Range{}, errors.New("no CI range found: set SMALL_HOOK_BASE (and optionally SMALL_HOOK_HEAD), or run under GitHub Actions, GitLab CI or pre-commit's pre-push stage")
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// zero reports git's all-zero object id, which CI systems use for "no
// commit" (the before of a new branch).
func zero(sha string) bool {
	return sha != "" && strings.Trim(sha, "0") == ""
}

// githubEvent holds the parts of GitHub's event payloads that name a range.
type githubEvent struct {
	Before      string `json:"before"`
	After       string `json:"after"`
	Ref         string `json:"ref"`
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

func github(getenv func(string) string) (Range, error) {
	name := getenv("GITHUB_EVENT_NAME")
	path := getenv("GITHUB_EVENT_PATH")
	if path == "" {
		return Range{}, errors.New("GITHUB_EVENT_PATH is not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Range{}, fmt.Errorf("reading the GitHub event payload: %w", err)
	}
	var ev githubEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return Range{}, fmt.Errorf("GitHub event payload %s: %w", path, err)
	}
	source := "GitHub " + name
	switch name {
	case "pull_request", "pull_request_target", "pull_request_review":
		if ev.PullRequest == nil || ev.PullRequest.Base.SHA == "" || ev.PullRequest.Head.SHA == "" {
			return Range{}, fmt.Errorf("GitHub %s event without pull_request.base.sha and head.sha", name)
		}
		return Range{Base: ev.PullRequest.Base.SHA, Head: ev.PullRequest.Head.SHA, Source: source}, nil
	case "merge_group":
		if ev.MergeGroup == nil || ev.MergeGroup.BaseSHA == "" {
			return Range{}, errors.New("GitHub merge_group event without merge_group.base_sha")
		}
		return Range{Base: ev.MergeGroup.BaseSHA, Head: or(ev.MergeGroup.HeadSHA, "HEAD"), Source: source}, nil
	case "push":
		head := or(ev.After, "HEAD")
		if !zero(ev.Before) && ev.Before != "" {
			return Range{Base: ev.Before, Head: head, Source: source}, nil
		}
		branch := ev.Repository.DefaultBranch
		if branch == "" || ev.Ref == "refs/heads/"+branch {
			return Range{}, errors.New("GitHub push of a new default branch: there is no base to compare with; set SMALL_HOOK_BASE or run small-hook check --all")
		}
		return Range{Base: "origin/" + branch, Head: head, Source: source + " (new branch, against " + branch + ")"}, nil
	}
	return Range{}, fmt.Errorf("GitHub event %q has no commit range small-hook knows; run on pull_request or push, or set SMALL_HOOK_BASE", name)
}

func gitlab(getenv func(string) string) (Range, error) {
	head := or(getenv("CI_COMMIT_SHA"), "HEAD")
	if base := getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA"); base != "" {
		return Range{Base: base, Head: head, Source: "GitLab merge request"}, nil
	}
	before := getenv("CI_COMMIT_BEFORE_SHA")
	if before != "" && !zero(before) {
		return Range{Base: before, Head: head, Source: "GitLab push"}, nil
	}
	branch := getenv("CI_DEFAULT_BRANCH")
	if branch == "" || getenv("CI_COMMIT_BRANCH") == branch {
		return Range{}, errors.New("GitLab pipeline without a previous commit (new branch or tag): set SMALL_HOOK_BASE")
	}
	return Range{Base: "origin/" + branch, Head: head, Source: "GitLab push (new branch, against " + branch + ")"}, nil
}
