package cienv

import "errors"

// gitlab reads the range from GitLab CI's predefined variables: the merge
// request's diff base, else the commit before the push (the tip it
// replaced), else (a new branch) the default branch, and for the pipeline
// of a new default branch every commit of it.
func gitlab(getenv func(string) string) (Range, error) {
	head := or(getenv("CI_COMMIT_SHA"), "HEAD")
	if base := getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA"); base != "" {
		return Range{Base: base, Head: head, Source: "GitLab merge request"}, nil
	}
	if before := getenv("CI_COMMIT_BEFORE_SHA"); before != "" && !isZero(before) {
		return Range{Base: before, Head: head, Source: "GitLab push", Previous: true}, nil
	}
	branch := getenv("CI_DEFAULT_BRANCH")
	if branch == "" {
		return Range{}, errors.New("GitLab pipeline without CI_COMMIT_BEFORE_SHA or CI_DEFAULT_BRANCH: set SMALL_HOOK_BASE")
	}
	if getenv("CI_COMMIT_BRANCH") == branch {
		return Range{Head: head, Source: "GitLab push that created the default branch " + branch}, nil
	}
	return Range{Base: "refs/remotes/origin/" + branch, Head: head, Source: "GitLab push of a new branch"}, nil
}
