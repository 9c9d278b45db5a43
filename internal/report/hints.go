package report

import (
	"slices"

	"github.com/small-hook/small-hook/rules"
)

// ruleHint is one hint of a rule's findings.
type ruleHint struct {
	rule, hint string
}

// hints lists the distinct hints of the findings, each rule's together,
// the rules in the order their first findings come: the text formats
// print each once, after the findings.
func hints(findings []rules.Finding) []ruleHint {
	var order []string
	byRule := map[string][]string{}
	for _, f := range findings {
		if f.Hint == "" {
			continue
		}
		list, seen := byRule[f.Rule]
		if !seen {
			order = append(order, f.Rule)
		}
		if !slices.Contains(list, f.Hint) {
			byRule[f.Rule] = append(list, f.Hint)
		}
	}
	var out []ruleHint
	for _, r := range order {
		for _, h := range byRule[r] {
			out = append(out, ruleHint{rule: r, hint: h})
		}
	}
	return out
}
