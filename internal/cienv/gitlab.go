package cienv

import "errors"

// gitlab reads the range from GitLab CI's predefined variables: the merge
// request's diff base; for a push to the default branch or a protected
// one, the commit before the push (the tip it replaced); for a push to any
// other branch (or a new one), the default branch, so that the whole
// branch is judged from its merge base with it (see Range.Previous); and
// for the pipeline of a new default branch every commit of it.
func gitlab(getenv func(string) string) (Range, error) {
	head := or(getenv("CI_COMMIT_SHA"), "HEAD")
	if base := getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA"); base != "" {
		return Range{Base: base, Head: head, Source: "GitLab merge request"}, nil
	}
	branch := getenv("CI_DEFAULT_BRANCH")
	before := getenv("CI_COMMIT_BEFORE_SHA")
	pushed := before != "" && !isZero(before)
	if pushed && (getenv("CI_COMMIT_BRANCH") == branch && branch != "" || getenv("CI_COMMIT_REF_PROTECTED") == "true") {
		return Range{Base: before, Head: head, Source: "GitLab push", Previous: true}, nil
	}
	if branch == "" {
		return Range{}, errors.New("GitLab pipeline without CI_DEFAULT_BRANCH: set SMALL_HOOK_BASE")
	}
	switch {
	case pushed:
		return Range{Base: "refs/remotes/origin/" + branch, Head: head, Source: "GitLab push to a branch that is not " + branch + " or protected: the whole branch"}, nil
	case getenv("CI_COMMIT_BRANCH") == branch:
		return Range{Head: head, Source: "GitLab push that created the default branch " + branch}, nil
	}
	return Range{Base: "refs/remotes/origin/" + branch, Head: head, Source: "GitLab push of a new branch"}, nil
}
