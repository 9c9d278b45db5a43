package smp

import (
	"strings"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

func attributionRule(appendOnly *rules.Rule) *rules.Rule {
	return &rules.Rule{
		ID:           "smp/attribution",
		Severity:     rules.Warning,
		PerWorkspace: true,
		Doc: `New provenance names the agent that made the commit
When an agent-attributed commit appends provenance entries to a knowledge artifact, each new entry's agent should be one of the commit's agent identities or one of the artifact's authors. Anything else means the provenance was written under another agent's name. Entries that the file already held before the commit (at any parent of a merge) are not judged again; in the pre-commit stage the actor is not known yet, and a tree (--all) has no actor to compare with. Record the change with the committing agent's identity, or add that agent to authors.`,
		Leaves: []*rules.Rule{appendOnly},
		Run: func(pass *rules.Pass) error {
			if pass.Unit.Mode == changes.ModeTree || pass.Actor.Pending || pass.Actor.Actor != attribution.Agent {
				return nil
			}
			known := map[string]bool{}
			for _, a := range pass.Actor.Agents {
				known[strings.ToLower(a)] = true
			}
			eachArtifact(pass, func(v versions) {
				authors := map[string]bool{}
				for _, a := range v.cur.strings("authors") {
					authors[strings.ToLower(a)] = true
				}
				entries, at := judgedEntries(pass, appendOnly, v)
				for k, e := range entries {
					who := strings.ToLower(agent(e))
					if who == "" || known[who] || authors[who] {
						continue
					}
					pass.Report(v.path, v.cur.entryLine(at[k]), "%s (%s) adds %s, whose agent is neither an agent of the commit nor an author of the artifact",
						pass.CommitName(), pass.Actor.Evidence, describeEntry(at[k], e)).
						Hint("record changes under the committing agent's identity, or add that agent to authors")
				}
			})
			return nil
		},
	}
}
