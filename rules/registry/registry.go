// Package registry lists every rule small-hook runs, in the order
// `small-hook rules` prints them.
package registry

import (
	"slices"

	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/attribution"
	"github.com/small-hook/small-hook/rules/ledger"
	"github.com/small-hook/small-hook/rules/path"
	"github.com/small-hook/small-hook/rules/push"
	"github.com/small-hook/small-hook/rules/secrets"
	"github.com/small-hook/small-hook/rules/small"
	"github.com/small-hook/small-hook/rules/smp"
)

// All returns every rule, freshly built on each call. A rule that leaves
// a consequence to a rule of another family (see rules.Rule.Leaves) is
// built with that rule.
func All() []*rules.Rule {
	ownership, humanEdit := small.OwnershipRules()
	return slices.Concat(
		small.Rules(),
		smp.Rules(),
		[]*rules.Rule{ownership, humanEdit},
		attribution.Rules(ownership),
		path.Rules(),
		push.Rules(),
		secrets.Rules(),
		ledger.Rules(),
	)
}
