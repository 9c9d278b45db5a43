package agentguard

import (
	"path"
	"strings"
)

// Advice says what an agent does instead of a write that a rule's finding
// refuses, when the rule's own hint is written for the human who commits
// (a trailer, a signature): keep history and append to it, propose
// instead of editing what a human owns, leave the secret out. It returns
// "" when the finding's hint is the fix (a schema, a timestamp, a
// layout). policyFile says the file is one of small-hook's policy files.
func Advice(rule, file string, policyFile bool) string {
	show := "the file as HEAD has it: git show HEAD:" + file
	switch {
	case rule == "small/append-only":
		return "leave every progress entry the file holds at HEAD exactly as it is (the same values, in the same order) and append a new entry at the end that records the change; " + show
	case rule == "smp/append-only":
		return "leave every provenance entry the artifact holds at HEAD exactly as it is, append a new entry (action: updated) that records the change and raise version by one; " + show
	case rule == "smp/undeclared":
		return "keep the artifact's SMP frontmatter (type: knowledge-artifact and smp:) as HEAD has it; " + show
	case rule == "small/ownership" && policyFile:
		return "small-hook's policy files are a human's to change: leave " + file + " as it is and ask a human to make the change"
	case rule == "small/ownership":
		return "intent and constraints are a human's to change: leave " + file + " as it is, write the change you propose to " + ProposalPath(file) + " (outside .small/) and ask a human to apply it"
	case strings.HasPrefix(rule, "secrets/"):
		return "remove the secret from what you write: a credential never belongs in the repository; read it at run time from an environment variable or a secret store"
	}
	return ""
}

// ProposalPath is where an agent writes its proposed change to a
// human-owned file: proposals/<name> at the repository's root, which no
// workspace governs.
func ProposalPath(file string) string {
	return "proposals/" + path.Base(file)
}
