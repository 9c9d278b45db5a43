package owner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
)

var (
	agentClaude = attribution.Verdict{
		Actor:    attribution.Agent,
		Evidence: "trailer Co-Authored-By: Claude <noreply@anthropic.com>",
		Agents:   []string{"noreply@anthropic.com"},
	}
	human   = attribution.Verdict{Actor: attribution.Human, Evidence: "no agent marker"}
	pending = attribution.Verdict{Actor: attribution.Unknown, Pending: true, Evidence: "no commit message yet"}
	unknown = attribution.Verdict{Actor: attribution.Unknown, Evidence: "no agent or human marker"}
)

// run runs the owner rules over units, every unit attributed to v.
func run(t *testing.T, cfg *config.Config, v attribution.Verdict, units ...changes.Unit) []rules.Finding {
	t.Helper()
	if cfg == nil {
		cfg = config.Default()
	}
	calls := 0
	findings, err := rules.Check(units, rules.Options{
		Rules:  Rules(),
		Config: cfg,
		Actor: func(*changes.Unit) (attribution.Verdict, error) {
			calls++
			return v, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if calls != len(units) {
		t.Errorf("Actor called %d times for %d units", calls, len(units))
	}
	return findings
}

func dump(fs []rules.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\n  %s %s %s:%d %s", f.Rule, f.Severity, f.Path, f.Line, f.Text())
	}
	return b.String()
}

// summary is "rule severity path" per finding.
// expect fails the test unless got summarises to want and every finding's
// message says each of says.
func expect(t *testing.T, got []rules.Finding, want, says []string) {
	t.Helper()
	if !same(summary(got), want) {
		t.Fatalf("got %q, want %q:%s", summary(got), want, dump(got))
	}
	for _, f := range got {
		for _, s := range says {
			if !strings.Contains(f.Text(), s) {
				t.Errorf("message lacks %q: %s", s, f.Text())
			}
		}
	}
}

func summary(fs []rules.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s %s %s", f.Rule, f.Severity, f.Path))
	}
	return out
}

func same(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The canonical files of the root workspace.
const (
	intent      = ".small/intent.small.yml"
	constraints = ".small/constraints.small.yml"
	plan        = ".small/plan.small.yml"
	progress    = ".small/progress.small.yml"
)

const (
	intentV1      = "small_version: \"1.0.0\"\nowner: human\nintent: Ship the thing\n"
	intentV2      = "small_version: \"1.0.0\"\nowner: human\nintent: Ship the other thing\n"
	constraintsV1 = "small_version: \"1.0.0\"\nowner: human\nconstraints: []\n"
	planV1        = "small_version: \"1.0.0\"\nowner: agent\ntasks: []\n"
	planV2        = "small_version: \"1.0.0\"\nowner: agent\ntasks: [{id: task-1, title: x}]\n"
	progressV1    = "small_version: \"1.0.0\"\nowner: agent\nentries: []\n"
	progressV2    = "small_version: \"1.0.0\"\nowner: agent\nentries: [{task_id: task-1}]\n"
)

func TestOwnership(t *testing.T) {
	base := rulestest.Snapshot{intent: intentV1, constraints: constraintsV1, plan: planV1, progress: progressV1}
	with := base.With
	cases := []struct {
		name          string
		verdict       attribution.Verdict
		before, after rulestest.Snapshot
		want          []string
		verb          string
	}{
		{"agent edits intent", agentClaude, base, with(intent, intentV2), []string{"small/ownership error " + intent}, "edits"},
		{"agent adds constraints", agentClaude, with(constraints, ""), base, []string{"small/ownership error " + constraints}, "adds"},
		{"agent deletes constraints", agentClaude, base, with(constraints, ""), []string{"small/ownership error " + constraints}, "deletes"},
		{"agent edits plan", agentClaude, base, with(plan, planV2), nil, ""},
		{"agent edits progress", agentClaude, base, with(progress, progressV2), nil, ""},
		{"human edits intent", human, base, with(intent, intentV2), nil, ""},
		{"human deletes constraints", human, base, with(constraints, ""), nil, ""},
		{"human edits progress", human, base, with(progress, progressV2), nil, ""},
		{"human edits plan", human, base, with(plan, planV2), nil, ""},
		{"human adds progress", human, with(progress, ""), base, nil, ""},
		{"pending edits intent", pending, base, with(intent, intentV2), nil, ""},
		{"pending agent verdict edits intent", attribution.Verdict{Actor: attribution.Agent, Pending: true}, base, with(intent, intentV2), nil, ""},
		{"unknown edits intent", unknown, base, with(intent, intentV2), nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := run(t, nil, c.verdict, rulestest.Staged(c.before, c.after))
			if !same(summary(got), c.want) {
				t.Fatalf("got %q, want %q:%s", summary(got), c.want, dump(got))
			}
			for _, f := range got {
				if f.Line != 0 {
					t.Errorf("line %d, want 0 (the whole file)", f.Line)
				}
				if !strings.Contains(f.Text(), c.verb+" ") || !strings.Contains(f.Text(), c.verdict.Evidence) || !strings.Contains(f.Text(), "this commit") {
					t.Errorf("message %q lacks %q, the evidence or \"this commit\"", f.Text(), c.verb)
				}
			}
		})
	}
}

func TestOwnershipNamesTheCommit(t *testing.T) {
	u := rulestest.Staged(rulestest.Snapshot{intent: intentV1}, rulestest.Snapshot{intent: intentV2})
	u.Mode = changes.ModeRange
	u.Commit = &changes.Commit{Hash: "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d", Message: "x\n"}
	got := run(t, nil, agentClaude, u)
	if len(got) != 1 || got[0].Commit != u.Commit.Hash || !strings.Contains(got[0].Text(), "commit 1a2b3c4d5e6f ") {
		t.Errorf("got:%s", dump(got))
	}
}

func TestUnknown(t *testing.T) {
	errCfg := config.Default()
	errCfg.Attribution.Unknown = "error"
	two := func() changes.Unit {
		return rulestest.Staged(
			rulestest.Snapshot{intent: intentV1, "artifacts/a.md": "x"},
			rulestest.Snapshot{intent: intentV2, "artifacts/a.md": "y", "README.md": "hi"})
	}
	cases := []struct {
		name    string
		cfg     *config.Config
		verdict attribution.Verdict
		unit    changes.Unit
		want    []string
	}{
		// One finding per unit, on the first governed path.
		{"unknown with unknown: error", errCfg, unknown, two(), []string{"attribution/unknown error .small/intent.small.yml"}},
		{"unknown with the default", nil, unknown, two(), nil},
		{"unknown, nothing governed", errCfg, unknown, rulestest.Staged(nil, rulestest.Snapshot{"README.md": "hi", "src/main.go": "package main"}), nil},
		{"unknown, an artifact", errCfg, unknown, rulestest.Staged(nil, rulestest.Snapshot{"artifacts/a.md": "---\nsmp: '1.0'\n---\n"}), []string{"attribution/unknown error artifacts/a.md"}},
		{"pending with unknown: error", errCfg, pending, two(), nil},
		{"human with unknown: error", errCfg, human, two(), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := run(t, c.cfg, c.verdict, c.unit)
			if !same(summary(got), c.want) {
				t.Errorf("got %q, want %q:%s", summary(got), c.want, dump(got))
			}
			for _, f := range got {
				if !strings.Contains(f.Text(), "Small-Actor: human") {
					t.Errorf("message does not say how to fix: %s", f.Text())
				}
			}
		})
	}
}

func TestRules(t *testing.T) {
	want := map[string]rules.Severity{"small/ownership": rules.Error, "small/human-edit": rules.Warning, "attribution/claim": rules.Warning, "attribution/unknown": rules.Error, "attribution/signature": rules.Error}
	rs := Rules()
	if len(rs) != len(want) {
		t.Errorf("%d rules", len(rs))
	}
	for _, r := range rs {
		if sev, ok := want[r.ID]; !ok || sev != r.Severity || r.Doc == "" {
			t.Errorf("rule %s severity %s", r.ID, r.Severity)
		}
		if r.OffByDefault != (r.ID == "small/human-edit") {
			t.Errorf("rule %s: off by default %v", r.ID, r.OffByDefault)
		}
	}
}

func TestTreeModeHasNoActor(t *testing.T) {
	errCfg := config.Default()
	errCfg.Attribution.Unknown = "error"
	files := rulestest.Snapshot{intent: intentV1, constraints: constraintsV1, plan: planV1, progress: progressV1,
		"artifacts/notes.md": "---\nid: 'artifact:notes'\n---\n"}
	for _, v := range []attribution.Verdict{agentClaude, human, unknown} {
		if got := run(t, errCfg, v, rulestest.Tree(files)); len(got) != 0 {
			t.Errorf("%s verdict in tree mode:%s", v.Actor, dump(got))
		}
		// The same files added by a staged change are judged.
		if got := run(t, errCfg, v, rulestest.Staged(nil, files)); v.Actor != attribution.Human && len(got) == 0 {
			t.Errorf("%s verdict, staged: no finding", v.Actor)
		}
	}
}
