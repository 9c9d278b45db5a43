package cienv

import "errors"

// gitlab reads the range from GitLab CI's predefined variables: the merge
// request's diff base, else the commit before the push, else (a new branch)
// the default branch.
func gitlab(getenv func(string) string) (Range, error) {
	head := or(getenv("CI_COMMIT_SHA"), "HEAD")
	if base := getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA"); base != "" {
		return Range{Base: base, Head: head, Source: "GitLab merge request"}, nil
	}
	if before := getenv("CI_COMMIT_BEFORE_SHA"); before != "" && !isZero(before) {
		return Range{Base: before, Head: head, Source: "GitLab push"}, nil
	}
	branch := getenv("CI_DEFAULT_BRANCH")
	if branch == "" {
		return Range{}, errors.New("GitLab pipeline without CI_COMMIT_BEFORE_SHA or CI_DEFAULT_BRANCH: set SMALL_HOOK_BASE")
	}
	if getenv("CI_COMMIT_BRANCH") == branch {
		return Range{}, errors.New("GitLab pipeline of a new default branch " + branch + ": there is no earlier commit to compare with; run small-hook check --all or set SMALL_HOOK_BASE")
	}
	return Range{Base: "origin/" + branch, Head: head, Source: "GitLab push of a new branch"}, nil
}
