package rules

// All returns every rule small-hook knows, in the order `small-hook rules`
// prints them. Each call returns fresh values.
func All() []*Rule {
	var all []*Rule
	all = append(all, smallRules()...)
	all = append(all, smpRules()...)
	all = append(all, ownershipRules()...)
	all = append(all, secretRules()...)
	return all
}

// Lookup returns the rule with the given ID, or nil.
func Lookup(id string) *Rule {
	for _, r := range All() {
		if r.ID == id {
			return r
		}
	}
	return nil
}
