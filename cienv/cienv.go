// Package cienv finds the range of commits a CI run should check from the
// environment: SMALL_HOOK_BASE/SMALL_HOOK_HEAD, the pre-commit framework's
// pre-push variables, GitHub Actions or GitLab CI.
package cienv

import (
	"errors"
	"strings"
)

// Range is the commits to check: those reachable from Head and not from
// Base. Source says where the range was found, for the report (e.g.
// "GitHub pull_request"). An empty Base means there is no history to
// compare with: the tree at Head is checked whole.
type Range struct {
	Base, Head, Source string
}

// Detect reads the environment through getenv (os.Getenv in production)
// and, on GitHub Actions, the event payload GITHUB_EVENT_PATH names. The
// first of these that is present wins: SMALL_HOOK_BASE (with
// SMALL_HOOK_HEAD, default HEAD), pre-commit's PRE_COMMIT_FROM_REF and
// PRE_COMMIT_TO_REF, GitHub Actions, GitLab CI.
func Detect(getenv func(string) string) (Range, error) {
	switch {
	case getenv("SMALL_HOOK_BASE") != "":
		return Range{Base: getenv("SMALL_HOOK_BASE"), Head: or(getenv("SMALL_HOOK_HEAD"), "HEAD"), Source: "SMALL_HOOK_BASE"}, nil
	case getenv("PRE_COMMIT_FROM_REF") != "":
		return Range{Base: getenv("PRE_COMMIT_FROM_REF"), Head: or(getenv("PRE_COMMIT_TO_REF"), "HEAD"), Source: "pre-commit"}, nil
	case getenv("PRE_COMMIT_REMOTE_NAME") != "":
		// pre-commit's pre-push stage sets no FROM_REF when the pushed
		// branch shares no commit with the remote (the repository's first
		// push): there is nothing to compare with, so the pushed tree is
		// checked whole.
		return Range{Head: or(getenv("PRE_COMMIT_TO_REF"), or(getenv("PRE_COMMIT_LOCAL_BRANCH"), "HEAD")), Source: "pre-commit, first push"}, nil
	case getenv("GITHUB_ACTIONS") == "true":
		return github(getenv)
	case getenv("GITLAB_CI") == "true":
		return gitlab(getenv)
	}
	return Range{}, errors.New("no commit range in the environment: set SMALL_HOOK_BASE (and optionally SMALL_HOOK_HEAD), " +
		"or run under GitHub Actions (GITHUB_ACTIONS, GITHUB_EVENT_NAME, GITHUB_EVENT_PATH), " +
		"GitLab CI (GITLAB_CI, CI_COMMIT_SHA) or pre-commit's pre-push stage (PRE_COMMIT_FROM_REF, PRE_COMMIT_TO_REF)")
}

// or returns s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// isZero reports git's all-zero object id, which CI systems use for "no
// commit" (the before of a new branch).
func isZero(sha string) bool {
	return sha != "" && strings.Trim(sha, "0") == ""
}
