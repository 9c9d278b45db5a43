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
// "GitHub pull_request"). An empty Base means there is no earlier commit
// to compare with (the first push of a repository): every commit
// reachable from Head is checked, the root included.
type Range struct {
	Base, Head, Source string
	// Previous is set when Base is the tip that Head replaces on the same
	// branch (a push, possibly forced), not a branch Head merges into (a
	// pull request, whose base may have moved on since Head forked). When
	// Head does not contain a previous tip, the governed files at Head must
	// still hold everything they held at Base. A previous tip is a trust
	// root only where an agent cannot move it: on the default branch and
	// the branches the platform protects. A push to any other branch
	// names the default branch as Base instead (Previous unset): its own
	// previous tip may be a push no check passed (a red pipeline, `git push
	// -o ci.skip`), so the whole branch is judged from its merge base with
	// the default branch, with the default branch's policy.
	Previous bool
	// Index says there is no range: the pre-commit framework runs the hook
	// without a push (`pre-commit run --all-files --hook-stage push`), and
	// the check looks at the staged change and every governed file of the
	// index, as the commit stage does with --all-files.
	Index bool
	// Push, when its Remote is set, says there is no range but a pushed
	// ref: pre-commit's pre-push stage names one, without a range, when
	// none of its commits back to the root is on that remote's
	// remote-tracking refs (a repository's first push, a remote just
	// added). The check plans it as the pre-push hook plans a push of that
	// ref to that remote.
	Push Push
}

// Push is one ref of a push, as pre-commit's pre-push stage names it.
type Push struct {
	// Remote is the remote pushed to (PRE_COMMIT_REMOTE_NAME).
	Remote string
	// LocalRef is what is pushed (PRE_COMMIT_LOCAL_BRANCH: the local side
	// of the ref git lists to the pre-push hook, a ref name or HEAD);
	// RemoteRef is the ref it creates or updates on the remote
	// (PRE_COMMIT_REMOTE_BRANCH).
	LocalRef, RemoteRef string
}

// Detect reads the environment through getenv (os.Getenv in production)
// and, on GitHub Actions, the event payload GITHUB_EVENT_PATH names. The
// first of these that is present wins: SMALL_HOOK_BASE (with
// SMALL_HOOK_HEAD, default HEAD), pre-commit's PRE_COMMIT_FROM_REF and
// PRE_COMMIT_TO_REF, pre-commit's pushed ref without them (see
// Range.Push), pre-commit without a push (the index: see Range.Index),
// GitHub Actions, GitLab CI.
func Detect(getenv func(string) string) (Range, error) {
	switch {
	case getenv("SMALL_HOOK_BASE") != "":
		return Range{Base: getenv("SMALL_HOOK_BASE"), Head: or(getenv("SMALL_HOOK_HEAD"), "HEAD"), Source: "SMALL_HOOK_BASE"}, nil
	case getenv("PRE_COMMIT_FROM_REF") != "":
		return preCommit(getenv), nil
	case getenv("PRE_COMMIT_REMOTE_NAME") != "":
		// pre-commit's pre-push stage sets no FROM_REF (and no TO_REF)
		// when no remote-tracking ref of the remote has any commit of the
		// pushed ref: it still names the ref and the remote.
		return Range{Push: Push{Remote: getenv("PRE_COMMIT_REMOTE_NAME"), LocalRef: or(getenv("PRE_COMMIT_LOCAL_BRANCH"), "HEAD"),
			RemoteRef: getenv("PRE_COMMIT_REMOTE_BRANCH")}, Source: "pre-commit pre-push"}, nil
	case getenv("PRE_COMMIT") == "1":
		// pre-commit runs every hook with PRE_COMMIT=1, and sets the
		// variables above for a push: without them there is none.
		return Range{Index: true, Source: "pre-commit, no push"}, nil
	case getenv("GITHUB_ACTIONS") == "true":
		return github(getenv)
	case getenv("GITLAB_CI") == "true":
		return gitlab(getenv)
	}
	return Range{}, errors.New("no commit range in the environment: set SMALL_HOOK_BASE (and optionally SMALL_HOOK_HEAD), " +
		"or run under GitHub Actions (GITHUB_ACTIONS, GITHUB_EVENT_NAME, GITHUB_EVENT_PATH), " +
		"GitLab CI (GITLAB_CI, CI_COMMIT_SHA) or pre-commit's pre-push stage (PRE_COMMIT_FROM_REF, PRE_COMMIT_TO_REF)")
}

// preCommit reads the range pre-commit names. In its pre-push stage
// (PRE_COMMIT_REMOTE_BRANCH is set) FROM_REF is the remote branch's tip
// when the clone has it: the tip the push replaces. Otherwise pre-commit
// picked the parent of the first commit no remote branch has, which TO_REF
// always contains, so treating it as a previous tip changes nothing. A
// `pre-commit run --from-ref --to-ref` sets no remote branch: a plain base.
func preCommit(getenv func(string) string) Range {
	r := Range{Base: getenv("PRE_COMMIT_FROM_REF"), Head: or(getenv("PRE_COMMIT_TO_REF"), "HEAD"), Source: "pre-commit"}
	if getenv("PRE_COMMIT_REMOTE_BRANCH") != "" {
		r.Previous, r.Source = true, "pre-commit pre-push"
	}
	return r
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
