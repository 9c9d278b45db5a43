package main

import (
	"errors"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/push"
)

// preReceiveTarget reads the ref updates git hands the pre-receive hook
// and plans their judgement (push.Receive), with the pusher the server
// names.
func preReceiveTarget(e *env, repo *gitdiff.Repo) (target, error) {
	lines, err := push.ReadReceive(e.stdin)
	if err != nil {
		return target{}, err
	}
	plan, err := push.Receive(repo, lines, e.getenv)
	if err != nil {
		return target{}, err
	}
	if plan.Notice != "" {
		printError(e, errors.New(plan.Notice))
	}
	return pushTarget(plan, "pre-receive", "--pre-receive"), nil
}
