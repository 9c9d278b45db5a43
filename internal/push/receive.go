package push

import (
	"fmt"

	"github.com/small-hook/small-hook/gitdiff"
)

// PusherVars are the variables in which servers name the account they
// authenticated for a push, in the order they are read: GitLab, Gitea and
// Forgejo, GitHub Enterprise Server, and a web server in front of git
// http-backend.
func PusherVars() []string {
	return []string{"GL_USERNAME", "GITEA_PUSHER_NAME", "GITHUB_USER_LOGIN", "REMOTE_USER"}
}

// pusherOf returns the authenticated pusher the server names, and the
// variable that names it; "" when none is set.
func pusherOf(getenv func(string) string) (name, from string) {
	for _, v := range PusherVars() {
		if name := getenv(v); name != "" {
			return name, v
		}
	}
	return "", ""
}

// Receive plans the judgement of the ref updates git hands the
// pre-receive hook: each update's new commits (those no branch or tag of
// the repository reaches before the push: see Guarded), each branch moved to a tip that
// does not contain its old one compared with it, each deletion judged.
// The policy files come from the default branch as it stands before the
// push (the push itself has not moved any ref yet), never from the pushed
// commits; a repository that has no default branch yet uses the built-in
// defaults. getenv reads the variables that name the pusher.
func Receive(repo *gitdiff.Repo, lines []ReceiveLine, getenv func(string) string) (*Plan, error) {
	defaultRef, defaultCommit, err := repo.DefaultBranch()
	if err != nil {
		return nil, err
	}
	refs, err := repo.Refs("refs/")
	if err != nil {
		return nil, err
	}
	plan := &Plan{}
	for _, r := range refs {
		if Guarded(r.Name) {
			plan.Judged = append(plan.Judged, r.Commit)
		}
	}
	plan.Judged = distinct(plan.Judged)
	for _, l := range lines {
		u := Update{Ref: l.Ref, DefaultBranch: l.Ref == defaultRef}
		if l.Old != ZeroID {
			u.Old = l.Old
			if u.Previous, err = repo.Peel(l.Old); err != nil {
				return nil, fmt.Errorf("%s: %w", u.Ref, err)
			}
		}
		if l.New != ZeroID {
			u.New = l.New
		}
		plan.Updates = append(plan.Updates, u)
	}
	plan.Pusher, plan.PusherVar = pusherOf(getenv)
	if defaultCommit == "" {
		plan.NoPolicy = true
		if len(refs) > 0 && defaultRef != "" {
			plan.Notice = fmt.Sprintf("HEAD names %s, which does not exist: the built-in configuration applies, not the repository's .small-hook.yml; point HEAD at the default branch (git symbolic-ref HEAD refs/heads/main)", defaultRef)
		}
		return plan, nil
	}
	plan.PolicyRev, plan.PolicyFrom, plan.Onto = defaultCommit, defaultRef, defaultCommit
	return plan, nil
}
