package main

import (
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/push"
	"github.com/small-hook/small-hook/rules"
)

// pushTarget is the target of a planned push (internal/push): its units
// are judged instead of base..head, with the policy the plan names.
func pushTarget(plan *push.Plan, label, flag string) target {
	return target{mode: changes.ModeRange, label: label, flag: flag, push: plan,
		policyRev: plan.PolicyRev, policyFrom: plan.PolicyFrom, noPolicy: plan.NoPolicy}
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
