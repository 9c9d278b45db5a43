package attribution

import (
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/small"
)

func claimRule(ownership *rules.Rule) *rules.Rule {
	return &rules.Rule{
		ID:       "attribution/claim",
		Severity: rules.Warning,
		Doc: `A human claim that evidence of an agent contradicts
Small-Actor: human and SMALL_HOOK_ACTOR=human are self-declared: anyone, an agent included, can write them. When the same commit carries evidence of an agent (an agent co-author line, Assisted-by or Generated-by, an agent author or committer, Small-Actor: agent), the evidence decides and the claim is false. Such a commit that changes agent state is reported once, on its first governed file, as a warning; when it also changes intent or constraints, small/ownership reports it as an error naming both the evidence and the claim instead (and this rule does, as an error, when small/ownership is turned off). Fix: a human commits without the agent's markers; an agent never claims to be human.`,
		Leaves: []*rules.Rule{ownership},
		Run: func(pass *rules.Pass) error {
			if !pass.ActorKnown() || pass.Actor.Contradicted == "" {
				return nil
			}
			first, sev := "", rules.Warning
			for _, ch := range pass.Unit.Changes {
				if small.HumanOwned(pass.Config, ch) && !rules.FromParent(ch) {
					if pass.Reports(ownership) {
						return nil
					}
					sev = rules.Error
				}
				if first == "" && governed(ch) {
					first = ch.Path
				}
			}
			if first != "" {
				pass.ReportSeverity(sev, first, 0, "%s claims %s but carries evidence of an agent (%s)",
					pass.CommitName(), pass.Actor.Contradicted, pass.Actor.Evidence).
					Hint("a self-declared claim never overrides that evidence, so the change is judged as an agent's; remove the false claim, or, if a human made the change, %s", pass.Actor.AsHuman())
			}
			return nil
		},
	}
}
