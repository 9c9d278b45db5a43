// Package path holds the rules of the path family: path/folded, which
// keeps governed paths spelled exactly (a path that a case-insensitive or
// normalising file system takes for a governed one would escape every
// other rule). Each rule is in the file named after it; this file lists
// them.
package path

import "github.com/small-hook/small-hook/rules"

// Rules returns the path rules, freshly built.
func Rules() []*rules.Rule {
	return []*rules.Rule{foldedRule()}
}
