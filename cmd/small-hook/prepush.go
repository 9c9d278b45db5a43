package main

import (
	"fmt"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/push"
)

// prePush is the pre-push hook: git names the remote and lists the refs
// being pushed on standard input. Each ref is planned (push.PrePush) and
// checked on its own, with its own policy.
func (c *checkCmd) prePush(e *env, repo *gitdiff.Repo, outs []*outputFile) (int, error) {
	lines, err := push.ReadSend(e.stdin)
	if err != nil {
		return exitFailure, err
	}
	sent, err := push.PrePush(repo, c.PrePush, lines)
	if err != nil {
		return exitFailure, err
	}
	worst := exitOK
	for _, s := range sent {
		if s.Refusal != "" {
			printError(e, fmt.Errorf("%s: %s", s.Line.RemoteRef, s.Refusal))
			worst = max(worst, exitFindings)
			continue
		}
		code, err := c.checkTarget(e, repo, pushTarget(s.Plan, "pre-push to "+c.PrePush, "--pre-push"), outs)
		if err != nil {
			return code, err
		}
		worst = max(worst, code)
	}
	return worst, nil
}
