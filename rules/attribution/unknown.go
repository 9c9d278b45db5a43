package attribution

import (
	actor "github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/rules"
)

func unknownRule() *rules.Rule {
	return &rules.Rule{
		ID:       "attribution/unknown",
		Severity: rules.Error,
		Doc: `Every change to agent state is attributed (only with attribution.unknown: error)
When .small-hook.yml sets attribution.unknown: error, a change to .small/ or artifacts/ must say who made it: an agent marker, or the trailer Small-Actor: human or Small-Actor: agent. Add the trailer to the commit message.`,
		Run: func(pass *rules.Pass) error {
			if !pass.ActorKnown() || pass.Actor.Actor != actor.Unknown || pass.Config.Attribution.Unknown != "error" {
				return nil
			}
			for _, ch := range pass.Unit.Changes {
				if governed(ch) {
					pass.Report(ch.Path, 0, "%s changes governed files but does not say whether a human or an agent made it (%s)", pass.CommitName(), pass.Actor.Evidence).
						Hint("add the trailer Small-Actor: human or Small-Actor: agent")
					return nil
				}
			}
			return nil
		},
	}
}
