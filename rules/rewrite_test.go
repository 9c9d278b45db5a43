package rules_test

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules"
)

// TestReportRewrite pins how a rewrite of governed history is judged for
// each actor and stage: its severity, what its message says and what it
// must not say.
func TestReportRewrite(t *testing.T) {
	staged := rulestest.Staged(rulestest.Snapshot{".small/progress.small.yml": "a\n"}, rulestest.Snapshot{".small/progress.small.yml": "b\n"})
	commit := staged
	commit.Mode, commit.Commit = changes.ModeRange, &changes.Commit{Hash: strings.Repeat("c", 40), Parents: []string{strings.Repeat("p", 40)}}
	tip := commit
	tip.Mode, tip.Ref = changes.ModeTip, "refs/heads/topic"
	protectedTip := tip
	protectedTip.Ref, protectedTip.DefaultBranch = "refs/heads/main", true
	unnamedTip := tip
	unnamedTip.Ref = ""
	hooked := &attribution.Setup{InCommit: true, CommitMsg: true, Install: "small-hook install"}
	byHand := &attribution.Setup{CommitMsg: true, Install: "small-hook install"}
	alone := &attribution.Setup{InCommit: true, Install: "listing the hook and installing it"}
	pending := attribution.Verdict{Actor: attribution.Unknown, Pending: true}
	with := func(v attribution.Verdict, s *attribution.Setup, reason string) attribution.Verdict {
		v.Setup, v.Rewrite = nil, reason
		if s != nil {
			v.Setup = func() *attribution.Setup { return s }
		}
		return v
	}
	human := attribution.Verdict{Actor: attribution.Human, Evidence: "no agent marker"}
	agent := attribution.Verdict{Actor: attribution.Agent, Evidence: "trailer Co-Authored-By: Claude <noreply@anthropic.com>"}
	signed := attribution.Verdict{Actor: attribution.Human, Evidence: "valid ssh signature", Disputed: "trailer Co-Authored-By: Claude <noreply@anthropic.com>"}
	cases := []struct {
		name  string
		unit  changes.Unit
		actor attribution.Verdict
		// severity is "" when nothing is reported.
		severity    rules.Severity
		says, lacks []string
	}{
		{"pre-commit stage inside a commit the commit-msg hook checks", staged, with(pending, hooked, ""), "", nil, nil},
		{"the same with SMALL_HOOK_REWRITE", staged, with(pending, hooked, "typo"), "", nil, nil},
		{"pre-commit stage run by hand, the commit-msg hook installed", staged, with(pending, byHand, ""), rules.Error,
			[]string{"restore", `git commit -m "<subject>" -m "Small-Rewrite: <reason>"`}, []string{"SMALL_HOOK_REWRITE"}},
		{"pre-commit stage, no commit-msg hook", staged, with(pending, alone, ""), rules.Error,
			[]string{`SMALL_HOOK_REWRITE=<reason> git commit -m "<subject>" -m "Small-Rewrite: <reason>"`, "listing the hook and installing it lets the trailer alone decide"}, nil},
		{"pre-commit stage, no commit-msg hook, SMALL_HOOK_REWRITE", staged, with(pending, alone, "typo"), rules.Warning,
			[]string{"SMALL_HOOK_REWRITE=typo", "the pre-push and CI checks decide"}, []string{"restore"}},
		{"pre-commit stage by hand, SMALL_HOOK_REWRITE", staged, with(pending, byHand, "typo"), rules.Warning,
			[]string{"SMALL_HOOK_REWRITE=typo", "the commit-msg stage decides"}, nil},
		{"commit-msg stage, a human without the trailer", staged, human, rules.Error,
			[]string{"restore", `git commit -m "<subject>" -m "Small-Rewrite: <reason>"`}, []string{"SMALL_HOOK_REWRITE"}},
		{"commit-msg stage, a human with the trailer", staged, with(human, nil, "typo"), rules.Warning,
			[]string{"an intended rewrite by a human commit (no agent marker), Small-Rewrite: typo"}, []string{"restore"}},
		{"an agent with the trailer", staged, with(agent, nil, "typo"), rules.Error,
			[]string{"Small-Rewrite: typo is not enough", "only a human commit may rewrite history, and this one is agent"}, nil},
		{"a human's key on an agent's commit", commit, with(signed, nil, "typo"), rules.Error,
			[]string{"withdraws a human's privilege to rewrite history, signed or not"}, nil},
		{"a commit without the trailer", commit, human, rules.Error,
			[]string{"git commit --amend", "git rebase -i"}, []string{"SMALL_HOOK_REWRITE"}},
		{"a commit with the trailer", commit, with(human, nil, "typo"), rules.Warning, []string{"Small-Rewrite: typo"}, nil},
		{"a force-push of the default branch", protectedTip, with(human, nil, "typo"), rules.Error,
			[]string{"a force-push of the default branch or a protected one cannot carry an intended rewrite: make it a new commit on top of the previous tip"}, []string{"git commit --amend"}},
		{"a force-push of a branch not named (--previous, CI)", unnamedTip, with(human, nil, "typo"), rules.Error,
			[]string{"cannot carry an intended rewrite"}, nil},
		{"a force-push of a topic branch, its new tip a human's without the trailer", tip, human, rules.Error,
			[]string{`a human's commit at its new tip says so: git commit --allow-empty -m "<subject>" -m "Small-Rewrite: <reason>"`}, []string{"git commit --amend"}},
		{"a force-push of a topic branch, its new tip a human's with the trailer", tip, with(human, nil, "leaked token"), rules.Warning,
			[]string{"Small-Rewrite: leaked token"}, nil},
		{"a force-push of a topic branch, its new tip an agent's with the trailer", tip, with(agent, nil, "typo"), rules.Error,
			[]string{"Small-Rewrite: typo is not enough"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			probe := &rules.Rule{ID: "test/rewrite", Severity: rules.Error, Doc: "Probe\nReports a rewrite.", Continuity: true, Run: func(pass *rules.Pass) error {
				pass.ReportRewrite(".small/progress.small.yml", 3, "entry 2 was changed", "restore the entry")
				return nil
			}}
			actor := c.actor
			found, err := rules.Check([]changes.Unit{c.unit}, rules.Options{Config: config.Default(), Rules: []*rules.Rule{probe},
				Actor: func(*changes.Unit) (attribution.Verdict, error) { return actor, nil }})
			if err != nil {
				t.Fatal(err)
			}
			if c.severity == "" {
				if len(found) != 0 {
					t.Fatalf("want nothing reported, got %v", found)
				}
				return
			}
			if len(found) != 1 || found[0].Severity != c.severity || found[0].Line != 3 || !strings.HasPrefix(found[0].Message, "entry 2 was changed") {
				t.Fatalf("want one %s at line 3, got %v", c.severity, found)
			}
			for _, s := range c.says {
				if !strings.Contains(found[0].Text(), s) {
					t.Errorf("the message lacks %q: %s", s, found[0].Text())
				}
			}
			for _, s := range c.lacks {
				if strings.Contains(found[0].Text(), s) {
					t.Errorf("the message says %q: %s", s, found[0].Text())
				}
			}
		})
	}
}
