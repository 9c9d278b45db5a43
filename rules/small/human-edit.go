package small

import (
	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/rules"
)

func humanEditRule() *rules.Rule {
	return &rules.Rule{
		ID:           "small/human-edit",
		Severity:     rules.Warning,
		OffByDefault: true,
		Doc: `A human edits agent-owned plan or progress (off unless turned on)
SMALL's ownership table says humans SHOULD NOT edit plan.small.yml and progress.small.yml by hand. In practice humans run the reference small CLI, which writes exactly those files, so nearly every human commit of a governed workspace would be reported: the rule is off by default. Turn it on with rules: {small/human-edit: warning} (or error) in .small-hook.yml to report a human-attributed commit that edits or deletes plan or progress. Fix: let the agent or the small CLI record the change (if an agent made the commit, mark it with Small-Actor: agent).`,
		Run: func(pass *rules.Pass) error {
			if !pass.ActorKnown() || pass.Actor.Actor != attribution.Human {
				return nil
			}
			for _, ch := range pass.Unit.Changes {
				if ch.Old != nil && OwnerOf(pass.Config, ch) == Agent && !rules.FromParent(ch) {
					pass.Report(ch.Path, 0, "%s is human-authored (%s) and %s agent-owned %s",
						pass.CommitName(), pass.Actor.Evidence, rules.Verb(ch), ch.Path).
						Hint("humans should not edit it by hand (it may be regenerated); let the agent or the small CLI record the change (if an agent made this commit, add the trailer Small-Actor: agent)")
				}
			}
			return nil
		},
	}
}
