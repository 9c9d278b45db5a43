package main

import (
	"fmt"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
)

// pusherVars are the variables in which servers name the account they
// authenticated for a push, in the order they are read: GitLab, Gitea and
// Forgejo, GitHub Enterprise Server, and a web server in front of git
// http-backend.
func pusherVars() []string {
	return []string{"GL_USERNAME", "GITEA_PUSHER_NAME", "GITHUB_USER_LOGIN", "REMOTE_USER"}
}

// pusherOf returns the authenticated pusher the server names, and the
// variable that names it; "" when none is set.
func pusherOf(getenv func(string) string) (name, from string) {
	for _, v := range pusherVars() {
		if name := getenv(v); name != "" {
			return name, v
		}
	}
	return "", ""
}

// preReceiveTarget reads the ref updates git hands the pre-receive hook
// (`<old> <new> <ref>` lines) and plans their judgement: each update's new
// commits (those no ref of the repository reaches before the push), each
// branch moved to a tip that does not contain its old one compared with
// it, each deletion judged. The policy files come from the default branch
// as it stands before the push (the push itself has not moved any ref yet),
// never from the pushed commits; a repository that has no default branch
// yet uses the built-in defaults.
func preReceiveTarget(e *env, repo *gitdiff.Repo) (target, error) {
	lines, err := readRefLines(e.stdin, 3, 0, 1)
	if err != nil {
		return target{}, err
	}
	defaultRef, defaultCommit, err := repo.DefaultBranch()
	if err != nil {
		return target{}, err
	}
	refs, err := repo.Refs("refs/")
	if err != nil {
		return target{}, err
	}
	plan := &pushPlan{}
	for _, r := range refs {
		plan.known = append(plan.known, r.Commit)
	}
	plan.known = distinct(plan.known)
	for _, l := range lines {
		u := refUpdate{ref: l[2], defaultBranch: l[2] == defaultRef}
		if l[0] != zeroID {
			u.old = l[0]
			if u.previous, err = repo.Peel(l[0]); err != nil {
				return target{}, fmt.Errorf("%s: %w", u.ref, err)
			}
		}
		if l[1] != zeroID {
			u.new = l[1]
		}
		plan.updates = append(plan.updates, u)
	}
	plan.pusher, plan.pusherVar = pusherOf(e.getenv)
	tgt := target{mode: changes.ModeRange, label: "pre-receive", flag: "--pre-receive", push: plan}
	if defaultCommit == "" {
		tgt.noPolicy = true
		if len(refs) > 0 && defaultRef != "" {
			printError(e, fmt.Errorf("HEAD names %s, which does not exist: the built-in configuration applies, not the repository's .small-hook.yml; point HEAD at the default branch (git symbolic-ref HEAD refs/heads/main)", defaultRef))
		}
		return tgt, nil
	}
	tgt.policyRev, tgt.policyFrom = defaultCommit, defaultRef
	return tgt, nil
}
