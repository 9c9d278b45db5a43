package main

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/hooks"
	"github.com/small-hook/small-hook/internal/push"
	"github.com/small-hook/small-hook/internal/words"
)

// olderRefs says, when install wrote a pre-receive hook, which branches
// and tags are older than it: the hook counts what they hold as judged
// (docs/servers.md), and how to survey that history; "" when there are
// none, or no pre-receive hook was written.
func olderRefs(e *env, dir string, actions []hooks.Action) (string, error) {
	written := false
	for _, a := range actions {
		written = written || a.Hook == "pre-receive" && a.What != "skipped"
	}
	if !written {
		return "", nil
	}
	repo, err := gitdiff.Open(dir, gitdiff.Options{Getenv: e.getenv})
	if err != nil {
		return "", err
	}
	defer repo.Close()
	refs, err := repo.Refs("refs/")
	if err != nil {
		return "", err
	}
	branches, tags := 0, 0
	for _, r := range refs {
		switch {
		case !push.Guarded(r.Name):
		case strings.HasPrefix(r.Name, "refs/heads/"):
			branches++
		default:
			tags++
		}
	}
	if branches+tags == 0 {
		return "", nil
	}
	survey := "small-hook check --history --head <branch>"
	if ref, commit, err := repo.DefaultBranch(); err != nil {
		return "", err
	} else if commit != "" {
		survey = "small-hook check --history --head " + ref
	}
	return fmt.Sprintf("pre-receive: %s and %s are older than the hook: it counts what they hold as judged and judges what later pushes add; survey that history once with %s",
		words.Count(branches, "branch", "branches"), words.Count(tags, "tag", "tags"), survey), nil
}
