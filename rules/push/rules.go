// Package push holds the rules of the push family, which judge what a
// push does to refs rather than to files: push/not-a-commit, a branch or a
// tag set to what is not a commit; push/protected, the deletion of a
// branch whose history is governed; push/replace, a replacement object
// that changes what git shows for another. Each rule is in the file named after
// it; this file lists them.
package push

import "github.com/small-hook/small-hook/rules"

// Rules returns the push rules, freshly built.
func Rules() []*rules.Rule {
	return []*rules.Rule{notACommitRule(), protectedRule(), replaceRule()}
}
