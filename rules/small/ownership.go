package small

import (
	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/rules"
)

func ownershipRule() *rules.Rule {
	return &rules.Rule{
		ID:       "small/ownership",
		Severity: rules.Error,
		Doc: `Agents do not touch human-owned intent, constraints and policy files
SMALL's ownership table: intent.small.yml and constraints.small.yml are human-owned and agents MUST NOT modify them. small-hook's own policy files are human-owned too: .small-hook.yml (and the file --config names, when it is inside the repository), .gitleaks.toml, .gitleaksignore, .small-hook-baseline (the adopted history's findings) and the key files the signatures section names (allowed-signers, openpgp-keys), since they decide what every later check trusts; no exclude: pattern takes them out. The actor comes from the commit: a valid signature by an allowed key proves a human (see attribution/signature); otherwise evidence of an agent (a Small-Actor: agent trailer or SMALL_HOOK_ACTOR=agent, agent co-author lines, Assisted-by/Generated-by, agent author or committer identities, .small-hook.yml) always wins over a self-declared Small-Actor: human or SMALL_HOOK_ACTOR=human, and the message then names both. An agent change that adds, edits or deletes a human-owned file is an error; an agent's merge commit is judged by what it writes of its own, not by a change it takes from a parent that made it (that parent's commits are judged themselves); a result that equals the merge base's version while another parent changed the file undoes that change, and is the merge's own. In the pre-commit stage the actor is not known yet, so this rule waits for the commit-msg stage (install both hooks); a tree (--all) has no actor and is not judged. The other direction, a human editing agent-owned plan or progress, is small/human-edit (off by default).`,
		SeesExcluded: true,
		Run: func(pass *rules.Pass) error {
			if !pass.ActorKnown() || pass.Actor.Actor != attribution.Agent {
				return nil
			}
			fix := "if a human made this change, commit it as that human without agent markers and with the trailer Small-Actor: human"
			switch a := pass.Actor; {
			case a.Pusher != "":
				fix = "if a human made this change, " + a.AsHuman()
			case a.Contradicted != "":
				fix = "a self-declared " + a.Contradicted + " never overrides evidence of an agent; if a human made this change, commit it as that human without the agent's co-author trailer or identity"
			}
			for _, ch := range pass.Unit.Changes {
				if !HumanOwned(pass.Config, ch) || rules.FromParent(ch) {
					continue
				}
				what := "agents must not change intent or constraints; a human commits such changes and agents propose them (a small draft file or a pull request comment)"
				if PolicyFile(pass.Config, ch.Path) {
					what = "agents must not change small-hook's policy files (" + config.FileName + ", " + config.GitleaksConfig + ", " + config.GitleaksIgnore + ", " + config.Baseline + " and the key files the configuration names), which decide what every later check trusts; a human commits such changes"
				}
				pass.Report(ch.Path, 0, "%s is agent-authored (%s) and %s human-owned %s",
					pass.CommitName(), pass.Actor.Evidence, rules.Verb(ch), ch.Path).Hint("%s; %s", what, fix)
			}
			return nil
		},
	}
}
