// Package registry lists every rule small-hook runs, in the order
// `small-hook rules` prints them.
package registry

import (
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/ledger"
	"github.com/small-hook/small-hook/rules/owner"
	"github.com/small-hook/small-hook/rules/paths"
	"github.com/small-hook/small-hook/rules/push"
	"github.com/small-hook/small-hook/rules/scope"
	"github.com/small-hook/small-hook/rules/secret"
	"github.com/small-hook/small-hook/rules/small"
	"github.com/small-hook/small-hook/rules/smp"
)

// All returns every rule, freshly built on each call.
func All() []*rules.Rule {
	var all []*rules.Rule
	all = append(all, small.Rules()...)
	all = append(all, smp.Rules()...)
	all = append(all, scope.Rules()...)
	all = append(all, owner.Rules()...)
	all = append(all, paths.Rules()...)
	all = append(all, push.Rules()...)
	all = append(all, secret.Rules()...)
	all = append(all, ledger.Rules()...)
	return all
}
