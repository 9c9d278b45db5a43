package rules

import (
	"fmt"

	"github.com/small-hook/small-hook/internal/changes"
)

// ReportRewrite reports a change that rewrites or retires governed history
// (progress entries or provenance changed or removed, a progress file or
// an artifact deleted, a declaration removed) as one finding at path and
// line: what says what the change does, undo how to keep the history
// instead ("restore the entries and append new ones that supersede
// them"). Who made the change decides the rest, the same way for every
// rule:
//
//   - a human commit that gives the trailer Small-Rewrite: <reason> and
//     carries no evidence of an agent (attribution.Verdict.MayRewrite)
//     rewrites on purpose: a warning that records the reason;
//   - in the pre-commit stage of a commit whose commit-msg hook runs
//     small-hook (attribution.Verdict.Deferred), nothing: that stage has
//     the message and decides;
//   - in a pre-commit stage that nothing follows, SMALL_HOOK_REWRITE=<reason>
//     makes it a warning;
//   - anything else is an error that says how to undo the change and how
//     this setup lets a human mark a rewrite as intended, or why the
//     reason given is not enough (an agent's commit, or an agent marker on
//     a commit a human's key signed).
//
// A push that rewrites a branch (changes.ModeTip) is judged by its new
// tip's commit the same way, except on the default branch and the
// branches push.protect names (config.Push.KeepsHistory), whose history no
// push rewrites: an error whoever pushes.
func (p *Pass) ReportRewrite(path string, line int, what, undo string) {
	a := p.Actor
	reason := a.Rewrite
	switch {
	case p.Unit.Mode == changes.ModeTip && p.Config.Push.KeepsHistory(p.Unit.Ref, p.Unit.DefaultBranch):
		p.ReportSeverity(Error, path, line, "%s", what).Hint("%s; a force-push of the default branch or a protected one cannot carry an intended rewrite: make it a new commit on top of the previous tip, by a human with the trailer Small-Rewrite: <reason>", undo)
	case a.Deferred():
		return
	case a.MayRewrite():
		p.ReportSeverity(Warning, path, line, "%s [an intended rewrite by a human commit (%s), Small-Rewrite: %s]", what, a.Evidence, reason)
	case a.Pending && reason != "":
		decides := "this setup runs no small-hook commit-msg hook, so the pre-push and CI checks decide"
		if s := a.HookSetup(); s != nil && s.CommitMsg {
			decides = "the commit-msg stage decides"
		}
		p.ReportSeverity(Warning, path, line, "%s [intended, SMALL_HOOK_REWRITE=%s: %s; only a human commit with the trailer Small-Rewrite: <reason> and no agent marker may rewrite history]", what, reason, decides)
	case reason != "" && a.Disputed != "":
		p.ReportSeverity(Error, path, line, "%s", what).
			Hint("%s; Small-Rewrite: %s is not enough: the commit carries evidence of an agent (%s), which withdraws a human's privilege to rewrite history, signed or not; if a human made the change, %s", undo, reason, a.Disputed, a.AsHuman())
	case reason != "":
		p.ReportSeverity(Error, path, line, "%s", what).
			Hint("%s; Small-Rewrite: %s is not enough: only a human commit may rewrite history, and this one is %s (%s); if a human made the change, %s", undo, reason, a.Actor, a.Evidence, a.AsHuman())
	default:
		p.ReportSeverity(Error, path, line, "%s", what).Hint("%s; %s", undo, p.markRewrite())
	}
}

// markRewrite says how a human marks a rewrite as intended where the
// change is judged.
func (p *Pass) markRewrite() string {
	const trailer = `git commit -m "<subject>" -m "Small-Rewrite: <reason>"`
	switch a := p.Actor; {
	case p.Unit.Mode == changes.ModeTip:
		return `if a human rewrites this branch on purpose (to take a leaked credential out of its history, say), a human's commit at its new tip says so: git commit --allow-empty -m "<subject>" -m "Small-Rewrite: <reason>", then push again`
	case p.Unit.Commit != nil:
		return "if the rewrite is intended, a human rewords the commit to end its message with the trailer Small-Rewrite: <reason> (git commit --amend for the last commit, git rebase -i to reword an older one)"
	case !a.Pending || a.HookSetup() != nil && a.HookSetup().CommitMsg:
		return "if the rewrite is intended, a human commits it with the trailer Small-Rewrite: <reason>: " + trailer
	default:
		install := "small-hook install"
		if s := a.HookSetup(); s != nil && s.Install != "" {
			install = s.Install
		}
		return fmt.Sprintf("if the rewrite is intended, a human commits it with SMALL_HOOK_REWRITE=<reason> %s (this setup checks the change before the message exists and runs no small-hook commit-msg hook; the pre-push and CI checks read the trailer; %s lets the trailer alone decide)", trailer, install)
	}
}
