// Package registry lists every rule small-hook runs, in the order
// `small-hook rules` prints them.
package registry

import (
	"github.com/small-hook/small-hook/rules"
)

// All returns every rule, freshly built on each call.
func All() []*rules.Rule {
	var all []*rules.Rule
	return all
}

// Lookup returns the rule with the given ID, or nil.
func Lookup(id string) *rules.Rule {
	for _, r := range All() {
		if r.ID == id {
			return r
		}
	}
	return nil
}
