// Package ledger declares the rules that `small-hook log` reports: checks
// of what progress and provenance entries claim against the commits that
// recorded them. They are rules like any other (listed by `small-hook
// rules`, set in .small-hook.yml), but they judge a whole history at once,
// so check never runs them (rules.Rule.Ledger): the ledger package applies
// them and reports their findings. Each rule ledger/<name> is declared in
// <name>.go, with the exported constant of its ID; this file lists them.
package ledger

import "github.com/small-hook/small-hook/rules"

// Rules returns the ledger rules, freshly built.
func Rules() []*rules.Rule {
	return []*rules.Rule{
		futureEntryRule(),
		backfilledRule(),
		evidenceCommitRule(),
		humanRecordedRule(),
		agentIdentityRule(),
		artifactMetadataRule(),
		rewrittenRule(),
	}
}
