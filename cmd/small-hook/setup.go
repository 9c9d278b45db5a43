package main

import (
	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/hooks"
	"github.com/small-hook/small-hook/internal/attribution"
)

// hookSetup says, in the pre-commit stage, what runs after it: whether the
// check runs inside `git commit` (git hands its hooks GIT_INDEX_FILE),
// whether the commit-msg hook will run small-hook with the message, and
// how this setup installs that hook (the pre-commit framework sets
// PRE_COMMIT=1 for the hooks it runs). It costs one git process (where
// the hooks are).
func hookSetup(repo *gitdiff.Repo, e *env) *attribution.Setup {
	dir, err := repo.HooksPath()
	runs := false
	if err == nil {
		runs, err = hooks.RunsCommitMsgCheck(dir, repo.WorkTree())
	}
	if err != nil {
		// git cannot say where the hooks are: no commit-msg hook is
		// counted on, so the pre-commit stage decides alone and its
		// advice names none (attribution.Verdict.HookSetup).
		return nil
	}
	s := &attribution.Setup{InCommit: e.getenv("GIT_INDEX_FILE") != "", CommitMsg: runs, Install: "small-hook install"}
	if e.getenv("PRE_COMMIT") == "1" {
		s.Install = "listing the small-hook-commit-msg hook in .pre-commit-config.yaml and running pre-commit install --hook-type commit-msg"
	}
	return s
}
