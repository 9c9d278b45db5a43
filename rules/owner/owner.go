// Package owner holds the rules that need to know who made a change: the
// SMALL ownership table (with small-hook's own policy files as human-owned),
// undecided attribution, human claims that evidence of an agent
// contradicts, and the signatures that prove a human made a change.
package owner

import (
	"slices"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/workspace"
)

// Rules returns the attribution rules, freshly built.
func Rules() []*rules.Rule {
	ownership := ownershipRule()
	return []*rules.Rule{ownership, humanEditRule(), claimRule(ownership), unknownRule(), signatureRule(ownership)}
}

// owner returns who owns a change's file by SMALL's ownership table:
// "human" for intent and constraints, "agent" for plan and progress, ""
// for anything else.
func owner(ch changes.Change) string {
	p := ch.Place
	if p.Area != workspace.Files || p.Folded {
		return ""
	}
	switch p.Rel {
	case "intent.small.yml", "constraints.small.yml":
		return "human"
	case "plan.small.yml", "progress.small.yml":
		return "agent"
	}
	return ""
}

// policyFile reports whether path is one of small-hook's policy files (see
// config.Config.PolicyFiles). They are human-owned, since they decide what
// every later check trusts.
func policyFile(cfg *config.Config, path string) bool {
	return slices.Contains(cfg.PolicyFiles(), path)
}

// humanOwned reports whether a change's file is human-owned: the intent or
// constraints of a SMALL workspace that the configuration does not
// exclude, or a policy file, which no exclude: pattern can take out.
func humanOwned(pass *rules.Pass, ch changes.Change) bool {
	return policyFile(pass.Config, ch.Path) || owner(ch) == "human" && !pass.Config.Excluded(ch.Path)
}

// judged reports whether a rule that needs the change's actor applies to
// the pass: not in tree mode (a tree has no change and no author) and not
// while the actor is pending (the commit-msg stage decides).
func judged(pass *rules.Pass) bool {
	return pass.Unit.Mode != changes.ModeTree && !pass.Actor.Pending
}

// who names the change for messages: "commit 1a2b3c4d5e6f" or "this commit".
func who(pass *rules.Pass) string {
	if c := pass.Unit.Commit; c != nil {
		return "commit " + c.Hash[:min(12, len(c.Hash))]
	}
	return "this commit"
}

// fromParent reports a merge commit's change that only takes a parent's
// change: the file as one parent has it, where that parent changed it since
// every merge base. That parent's own commits made the change and are
// judged as themselves. What a merge writes of its own is judged on the
// merge, and so is a result that equals a merge base's version while
// another parent changed the file: that undoes the other parent's change (a
// merge crafted with an old commit as a parent, two parents or more, would
// otherwise revert a human's intent edit unjudged).
func fromParent(ch changes.Change) bool {
	if ch.Merge == nil {
		return false
	}
	same := func(a, b *changes.Blob) bool {
		return (a == nil) == (b == nil) && (a == nil || a.Hash == b.Hash && a.Kind == b.Kind)
	}
	for _, p := range ch.Merge.Parents {
		if !same(p, ch.New) {
			continue
		}
		changed := true
		for _, b := range ch.Merge.AllBases() {
			if same(p, b) {
				changed = false
			}
		}
		if changed {
			return true
		}
	}
	return false
}

func verb(ch changes.Change) string {
	switch {
	case ch.Old == nil:
		return "adds"
	case ch.New == nil:
		return "deletes"
	}
	return "edits"
}

func ownershipRule() *rules.Rule {
	return &rules.Rule{
		ID:       "small/ownership",
		Severity: rules.Error,
		Doc: `Agents do not touch human-owned intent, constraints and policy files
SMALL's ownership table: intent.small.yml and constraints.small.yml are human-owned and agents MUST NOT modify them. small-hook's own policy files are human-owned too: .small-hook.yml (and the file --config names, when it is inside the repository), .gitleaks.toml, .gitleaksignore and the key files the signatures section names (allowed-signers, openpgp-keys), since they decide what every later check trusts; no exclude: pattern takes them out. The actor comes from the commit: a valid signature by an allowed key proves a human (see attribution/signature); otherwise evidence of an agent (a Small-Actor: agent trailer or SMALL_HOOK_ACTOR=agent, agent co-author lines, Assisted-by/Generated-by, agent author or committer identities, .small-hook.yml) always wins over a self-declared Small-Actor: human or SMALL_HOOK_ACTOR=human, and the message then names both. An agent change that adds, edits or deletes a human-owned file is an error; an agent's merge commit is judged by what it writes of its own, not by a change it takes from a parent that made it (that parent's commits are judged themselves); a result that equals the merge base's version while another parent changed the file undoes that change, and is the merge's own. In the pre-commit stage the actor is not known yet, so this rule waits for the commit-msg stage (install both hooks); a tree (--all) has no actor and is not judged. The other direction, a human editing agent-owned plan or progress, is small/human-edit (off by default).`,
		SeesExcluded: true,
		Run: func(pass *rules.Pass) error {
			if !judged(pass) || pass.Actor.Actor != attribution.Agent {
				return nil
			}
			fix := "if a human made this change, commit it as that human without agent markers and with the trailer Small-Actor: human"
			if pass.Actor.Contradicted != "" {
				fix = "a self-declared " + pass.Actor.Contradicted + " never overrides evidence of an agent; if a human made this change, commit it as that human without the agent's co-author trailer or identity"
			}
			for _, ch := range pass.Unit.Changes {
				if !humanOwned(pass, ch) || fromParent(ch) {
					continue
				}
				what := "agents must not change intent or constraints; a human commits such changes and agents propose them (a small draft file or a pull request comment)"
				if policyFile(pass.Config, ch.Path) {
					what = "agents must not change small-hook's policy files (" + config.FileName + ", " + config.GitleaksConfig + ", " + config.GitleaksIgnore + " and the key files the configuration names), which decide what every later check trusts; a human commits such changes"
				}
				pass.Report(ch.Path, 0, "%s is agent-authored (%s) and %s human-owned %s",
					who(pass), pass.Actor.Evidence, verb(ch), ch.Path).Hint("%s; %s", what, fix)
			}
			return nil
		},
	}
}

func humanEditRule() *rules.Rule {
	return &rules.Rule{
		ID:           "small/human-edit",
		Severity:     rules.Warning,
		OffByDefault: true,
		Doc: `A human edits agent-owned plan or progress (off unless turned on)
SMALL's ownership table says humans SHOULD NOT edit plan.small.yml and progress.small.yml by hand. In practice humans run the reference small CLI, which writes exactly those files, so nearly every human commit of a governed workspace would be reported: the rule is off by default. Turn it on with rules: {small/human-edit: warning} (or error) in .small-hook.yml to report a human-attributed commit that edits or deletes plan or progress. Fix: let the agent or the small CLI record the change (if an agent made the commit, mark it with Small-Actor: agent).`,
		Run: func(pass *rules.Pass) error {
			if !judged(pass) || pass.Actor.Actor != attribution.Human {
				return nil
			}
			for _, ch := range pass.Unit.Changes {
				if ch.Old != nil && owner(ch) == "agent" && !fromParent(ch) {
					pass.Report(ch.Path, 0, "%s is human-authored (%s) and %s agent-owned %s",
						who(pass), pass.Actor.Evidence, verb(ch), ch.Path).
						Hint("humans should not edit it by hand (it may be regenerated); let the agent or the small CLI record the change (if an agent made this commit, add the trailer Small-Actor: agent)")
				}
			}
			return nil
		},
	}
}

// governed reports a change to agent state: a SMALL workspace's files or
// an AWP workspace's artifacts.
func governed(ch changes.Change) bool {
	return ch.Place.Area == workspace.Files || ch.Place.Area == workspace.Artifacts
}

func claimRule(ownership *rules.Rule) *rules.Rule {
	return &rules.Rule{
		ID:       "attribution/claim",
		Severity: rules.Warning,
		Doc: `A human claim that evidence of an agent contradicts
Small-Actor: human and SMALL_HOOK_ACTOR=human are self-declared: anyone, an agent included, can write them. When the same commit carries evidence of an agent (an agent co-author line, Assisted-by or Generated-by, an agent author or committer, Small-Actor: agent), the evidence decides and the claim is false. Such a commit that changes agent state is reported once, on its first governed file, as a warning; when it also changes intent or constraints, small/ownership reports it as an error naming both the evidence and the claim instead (and this rule does, as an error, when small/ownership is turned off). Fix: a human commits without the agent's markers; an agent never claims to be human.`,
		Leaves: []*rules.Rule{ownership},
		Run: func(pass *rules.Pass) error {
			if !judged(pass) || pass.Actor.Contradicted == "" {
				return nil
			}
			first, sev := "", rules.Warning
			for _, ch := range pass.Unit.Changes {
				if humanOwned(pass, ch) && !fromParent(ch) {
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
					who(pass), pass.Actor.Contradicted, pass.Actor.Evidence).
					Hint("a self-declared claim never overrides that evidence, so the change is judged as an agent's; remove the false claim, or, if a human made the change, commit it without the agent's markers")
			}
			return nil
		},
	}
}

func unknownRule() *rules.Rule {
	return &rules.Rule{
		ID:       "attribution/unknown",
		Severity: rules.Error,
		Doc: `Every change to agent state is attributed (only with attribution.unknown: error)
When .small-hook.yml sets attribution.unknown: error, a change to .small/ or artifacts/ must say who made it: an agent marker, or the trailer Small-Actor: human or Small-Actor: agent. Add the trailer to the commit message.`,
		Run: func(pass *rules.Pass) error {
			if !judged(pass) || pass.Actor.Actor != attribution.Unknown || pass.Config.Attribution.Unknown != "error" {
				return nil
			}
			for _, ch := range pass.Unit.Changes {
				if governed(ch) {
					pass.Report(ch.Path, 0, "%s changes governed files but does not say whether a human or an agent made it (%s)", who(pass), pass.Actor.Evidence).
						Hint("add the trailer Small-Actor: human or Small-Actor: agent")
					return nil
				}
			}
			return nil
		},
	}
}
