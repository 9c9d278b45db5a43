package agentguard

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/rules/registry"
)

// TestAdviceNamesRulesThatExist checks that every rule the guard has its
// own advice for is a rule small-hook runs: a renamed rule would otherwise
// fall back to its hint, written for the human who commits.
func TestAdviceNamesRulesThatExist(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range registry.All() {
		ids[r.ID] = true
	}
	for _, id := range []string{"small/append-only", "smp/append-only", "smp/undeclared", "small/ownership", "secrets"} {
		if !ids[id] {
			t.Errorf("the guard advises on %s, which is no rule", id)
		}
		rule := id
		if id == "secrets" {
			rule = "secrets/github-pat"
		}
		if Advice(rule, ".small/intent.small.yml", false) == "" {
			t.Errorf("no advice for %s", rule)
		}
	}
	if got := Advice("small/schema", ".small/plan.small.yml", false); got != "" {
		t.Errorf("a content rule gets the guard's advice %q; its own hint is the fix", got)
	}
	if got := Advice("small/ownership", ".small-hook.yml", true); !strings.Contains(got, "policy files") {
		t.Errorf("a policy file's advice: %q", got)
	}
	if got := ProposalPath("examples/demo/.small/constraints.small.yml"); got != "proposals/constraints.small.yml" {
		t.Errorf("ProposalPath = %q", got)
	}
}
