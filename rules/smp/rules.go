// Package smp holds the rules for Shared Memory Protocol 1.0 knowledge
// artifacts: artifacts/<slug>.md files with YAML frontmatter, an
// append-only provenance list and a version counter, in AWP workspaces
// or declaring themselves. Each rule smp/<name> is in <name>.go; the
// other files hold what the rules share: artifact.go (an artifact parsed,
// a change's versions, the entries it adds), history.go (how a change
// rewrites provenance: the fact smp/append-only reports and the rules
// that judge what a change adds leave to it), bodymerge.go (the
// three-way merge of bodies), number.go (YAML numbers by value) and
// ledger.go (what the ledger of small-hook log reuses).
package smp

import (
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/schemas"
)

// Rules returns the SMP rules, freshly built.
func Rules() []*rules.Rule {
	id := idRule()
	appendOnly := appendOnlyRule()
	schema := schemaRule(schemas.New(), id)
	provenance := provenanceRule(appendOnly)
	return []*rules.Rule{
		parseRule(),
		schema,
		id,
		appendOnly,
		versionRule(schema, appendOnly),
		provenance,
		unrecordedRule(unrecordedLeaves{appendOnly: appendOnly, id: id, provenance: provenance}),
		mergeRule(appendOnly),
		attributionRule(appendOnly),
		undeclaredRule(),
	}
}
