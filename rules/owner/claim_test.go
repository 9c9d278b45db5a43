package owner

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules/rulestest"
)

func loadConfig(t *testing.T, yml string) *config.Config {
	t.Helper()
	cfg, err := config.Load([]byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func TestOwnerHumanEditIsOffByDefault(t *testing.T) {
	base := rulestest.Snapshot{intent: intentV1, plan: planV1, progress: progressV1}
	edited := rulestest.Snapshot{intent: intentV1, plan: planV2, progress: progressV2}
	cases := []struct {
		name    string
		yml     string
		verdict attribution.Verdict
		want    []string
	}{
		{"a human runs the small CLI: silent by default", "", human, nil},
		{"turned on as a warning", "rules:\n  small/human-edit: warning\n", human, []string{"small/human-edit warning " + plan, "small/human-edit warning " + progress}},
		{"turned on as an error", "rules:\n  small/human-edit: error\n", human, []string{"small/human-edit error " + plan, "small/human-edit error " + progress}},
		{"an agent editing its own files, turned on", "rules:\n  small/human-edit: warning\n", agentClaude, nil},
		{"pending, turned on", "rules:\n  small/human-edit: warning\n", pending, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := run(t, loadConfig(t, c.yml), c.verdict, rulestest.Staged(base, edited))
			if !same(summary(got), c.want) {
				t.Errorf("got %q, want %q:%s", summary(got), c.want, dump(got))
			}
			for _, f := range got {
				if !strings.Contains(f.Text(), "Small-Actor: agent") || !strings.Contains(f.Text(), human.Evidence) {
					t.Errorf("message lacks the evidence or the fix: %s", f.Text())
				}
			}
		})
	}
}

// decided attributes a commit message the way small-hook does.
func decided(t *testing.T, message string, author changes.Identity) attribution.Verdict {
	t.Helper()
	v, err := attribution.Decide(attribution.Input{Message: message, HasMessage: true, Author: author, Committer: author}, config.Default().Attribution)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestOwnerAgentClaimingToBeHuman: an agent that adds Small-Actor: human
// to its commit still may not edit the intent, and the finding says both
// what marked the agent and what it claimed.
func TestOwnerAgentClaimingToBeHuman(t *testing.T) {
	jane := changes.Identity{Name: "Jane Doe", Email: "jane@example.com"}
	copilot := changes.Identity{Name: "Copilot", Email: "198982749+Copilot@users.noreply.github.com"}
	claudeClaim := decided(t, "Edit the intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nSmall-Actor: human\n", jane)
	copilotClaim := decided(t, "Edit the intent\n\nSmall-Actor: human\n", copilot)
	bodyClaim := decided(t, "Edit\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n\nMore words.\n\nSmall-Actor: human\n", jane)
	base := rulestest.Snapshot{intent: intentV1, plan: planV1, progress: progressV1}
	intentEdit := rulestest.Snapshot{intent: intentV2, plan: planV1, progress: progressV1}
	progressEdit := rulestest.Snapshot{intent: intentV1, plan: planV1, progress: progressV2}
	cases := []struct {
		name    string
		verdict attribution.Verdict
		yml     string
		after   rulestest.Snapshot
		want    []string
		says    []string
	}{
		{"Claude co-author edits the intent", claudeClaim, "", intentEdit, []string{"small/ownership error " + intent},
			[]string{"Co-Authored-By: Claude <noreply@anthropic.com>", "Small-Actor: human", "never overrides"}},
		{"Copilot author edits the intent", copilotClaim, "", intentEdit, []string{"small/ownership error " + intent},
			[]string{"author Copilot", "Small-Actor: human"}},
		{"a co-author line in the body edits the intent", bodyClaim, "", intentEdit, []string{"small/ownership error " + intent},
			[]string{"outside the trailers", "Small-Actor: human"}},
		{"the false claim on agent-owned progress is a warning", claudeClaim, "", progressEdit, []string{"attribution/claim warning " + progress},
			[]string{"claims trailer Small-Actor: human", "Co-Authored-By: Claude"}},
		{"with small/ownership off the claim is the error", claudeClaim, "rules:\n  small/ownership: off\n", intentEdit, []string{"attribution/claim error " + intent},
			[]string{"Small-Actor: human", "Co-Authored-By: Claude"}},
		{"a true human claim", decided(t, "Edit the intent\n\nSmall-Actor: human\n", jane), "", intentEdit, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := run(t, loadConfig(t, c.yml), c.verdict, rulestest.Staged(base, c.after))
			expect(t, got, c.want, c.says)
		})
	}
}

// TestOwnerClaimIsReportedOncePerCommit: several governed files, one
// false claim, one finding.
func TestOwnerClaimIsReportedOncePerCommit(t *testing.T) {
	v := decided(t, "Edit\n\nSmall-Actor: human\nSmall-Actor: agent\n", changes.Identity{Name: "Jane", Email: "jane@example.com"})
	u := rulestest.Staged(rulestest.Snapshot{plan: planV1, progress: progressV1}, rulestest.Snapshot{plan: planV2, progress: progressV2, "artifacts/a.md": "x"})
	got := run(t, nil, v, u)
	if !same(summary(got), []string{"attribution/claim warning " + plan}) {
		t.Errorf("got:%s", dump(got))
	}
	if got := run(t, nil, v, rulestest.Tree(rulestest.Snapshot{plan: planV2})); len(got) != 0 {
		t.Errorf("tree mode has no actor:%s", dump(got))
	}
}

// TestOwnerAgentMergeCommits: an agent that merges a branch on which a
// human edited the intent takes that edit as it is; an agent that edits the
// intent in the merge itself is reported.
func TestOwnerAgentMergeCommits(t *testing.T) {
	const humanIntent = "small_version: \"1.0.0\"\nowner: human\nintent: Ship the human's thing\n"
	merge := func(result string) changes.Unit {
		u := rulestest.Staged(rulestest.Snapshot{intent: intentV1}, rulestest.Snapshot{intent: result})
		u.Mode = changes.ModeRange
		u.Commit = &changes.Commit{Hash: "abcdef0123456789abcdef0123456789abcdef01", Message: "Merge\n", Parents: []string{"1", "2"}}
		u.Changes[0].Merge = &changes.Merge{Base: rulestest.Blob(intentV1), Parents: []*changes.Blob{rulestest.Blob(intentV1), rulestest.Blob(humanIntent)}}
		return u
	}
	if got := run(t, nil, agentClaude, merge(humanIntent)); len(got) != 0 {
		t.Errorf("an agent's merge taking a human's intent edit:%s", dump(got))
	}
	if got := run(t, nil, agentClaude, merge(intentV2)); !same(summary(got), []string{"small/ownership error " + intent}) {
		t.Errorf("an agent's merge writing an intent of its own:%s", dump(got))
	}
	deleted := rulestest.Staged(rulestest.Snapshot{intent: intentV1}, rulestest.Snapshot{})
	deleted.Changes[0].Merge = &changes.Merge{Base: rulestest.Blob(intentV1), Parents: []*changes.Blob{rulestest.Blob(intentV1), nil}}
	if got := run(t, nil, agentClaude, deleted); len(got) != 0 {
		t.Errorf("an agent's merge taking a deletion from a parent:%s", dump(got))
	}
	// A merge whose second parent is an old commit, taking that commit's
	// intent: equal to a parent, but it undoes the first parent's edit.
	revert := rulestest.Staged(rulestest.Snapshot{intent: humanIntent}, rulestest.Snapshot{intent: intentV1})
	revert.Changes[0].Merge = &changes.Merge{Base: rulestest.Blob(intentV1), Parents: []*changes.Blob{rulestest.Blob(humanIntent), rulestest.Blob(intentV1)}}
	if got := run(t, nil, agentClaude, revert); !same(summary(got), []string{"small/ownership error " + intent}) {
		t.Errorf("an agent's merge reverting the intent to the merge base's:%s", dump(got))
	}
	// An octopus merge of two branches that hold the human's edit and of
	// the old commit before it, taking that commit's intent: the merge base
	// of the first two parents holds the edit, the merge base of the old
	// commit and the others is the old commit itself.
	octopus := rulestest.Staged(rulestest.Snapshot{intent: humanIntent}, rulestest.Snapshot{intent: intentV1})
	octopus.Changes[0].Merge = &changes.Merge{Base: rulestest.Blob(humanIntent),
		Bases:   []*changes.Blob{rulestest.Blob(humanIntent), rulestest.Blob(intentV1)},
		Parents: []*changes.Blob{rulestest.Blob(humanIntent), rulestest.Blob(humanIntent), rulestest.Blob(intentV1)}}
	if got := run(t, nil, agentClaude, octopus); !same(summary(got), []string{"small/ownership error " + intent}) {
		t.Errorf("an agent's octopus merge reverting the intent to an old parent's:%s", dump(got))
	}
	added := rulestest.Staged(rulestest.Snapshot{intent: humanIntent}, rulestest.Snapshot{})
	added.Changes[0].Merge = &changes.Merge{Parents: []*changes.Blob{rulestest.Blob(humanIntent), nil}}
	if got := run(t, nil, agentClaude, added); !same(summary(got), []string{"small/ownership error " + intent}) {
		t.Errorf("an agent's merge dropping an intent the merge base did not have:%s", dump(got))
	}
}
