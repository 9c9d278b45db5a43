package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/cienv"
	"github.com/small-hook/small-hook/internal/push"
)

// preCommitPush checks the ref pre-commit's pre-push stage names without a
// range (cienv.Range.Push) as the pre-push hook checks a push of it to
// that remote: the hook gets the line git lists on its standard input,
// the pushed commit on the local side (the hook reads no local ref name).
// pre-commit names no range only when the remote's tip of the ref is not
// in this repository (git's "no object" for a new ref) and no
// remote-tracking ref of the remote reaches a pushed commit; the line says
// "no object". So a push over a remote tip this repository lacks, which
// git refuses unless it is forced and the pre-push hook refuses (pull
// first), is planned as a new ref: compared with the ref's remote-tracking
// ref when there is one.
func (c *checkCmd) preCommitPush(e *env, repo *gitdiff.Repo, outs []*outputFile, p cienv.Push) (int, error) {
	if p.RemoteRef == "" {
		return exitFailure, errors.New("--ci (pre-commit pre-push): PRE_COMMIT_REMOTE_BRANCH is not set, though PRE_COMMIT_REMOTE_NAME is (pre-commit sets both for a push)")
	}
	local, err := repo.Resolve(p.LocalRef)
	if err != nil {
		return exitFailure, fmt.Errorf("--ci (pre-commit pre-push): PRE_COMMIT_LOCAL_BRANCH=%s: %w", p.LocalRef, err)
	}
	hook := *c
	hook.CI, hook.PrePush = false, p.Remote
	e.stdin = strings.NewReader(strings.Join([]string{local, local, p.RemoteRef, push.ZeroID}, " ") + "\n")
	return hook.prePush(e, repo, outs)
}
