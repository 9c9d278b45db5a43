package main

import (
	"fmt"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/push"
	"github.com/small-hook/small-hook/rules"
)

// pushTarget is the target of a planned push (internal/push): its units
// are judged instead of base..head, with the policy the plan names.
func pushTarget(plan *push.Plan, label, flag string) target {
	return target{mode: changes.ModeRange, label: label, flag: flag, push: plan,
		policyRev: plan.PolicyRev, policyFrom: plan.PolicyFrom, noPolicy: plan.NoPolicy}
}

// pushTips compares, for every branch the push moves to a tip that does
// not contain the one it replaces, the two tips (see checkTip); each
// finding's message starts with the branch. It reports whether any branch
// was rewritten.
func pushTips(repo *gitdiff.Repo, plan *push.Plan, scope gitdiff.Scope, cfg *config.Config, paths map[string]bool) ([]rules.Finding, bool, error) {
	tips, err := push.Tips(repo, plan)
	if err != nil {
		return nil, false, err
	}
	var out []rules.Finding
	rewritten := false
	for _, t := range tips {
		found, moved, err := checkTip(repo, t.Previous, t.Head, scope, cfg, paths)
		if err != nil {
			return nil, false, fmt.Errorf("%s: comparing %s with the previous tip %s: %w", t.Ref, t.Head, t.Previous, err)
		}
		rewritten = rewritten || moved
		for _, f := range found {
			f.Message = t.Ref + ": " + f.Message
			out = append(out, f)
		}
	}
	return out, rewritten, nil
}

// withRefs prefixes the message of every finding on a commit a push
// brought with the ref that brought it.
func withRefs(findings []rules.Finding, refOf map[string]string) {
	for i := range findings {
		if ref := refOf[findings[i].Commit]; ref != "" {
			findings[i].Message = ref + ": " + findings[i].Message
		}
	}
}
