package owner

import (
	"fmt"
	"os"
	"path/filepath"
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
		fmt.Fprintf(&b, "\n  %s %s %s:%d %s", f.Rule, f.Severity, f.Path, f.Line, f.Message)
	}
	return b.String()
}

// summary is "rule severity path" per finding.
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
	with := func(path, content string) rulestest.Snapshot {
		out := rulestest.Snapshot{}
		for k, v := range base {
			out[k] = v
		}
		if content == "" {
			delete(out, path)
		} else {
			out[path] = content
		}
		return out
	}
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
		{"human edits progress", human, base, with(progress, progressV2), []string{"small/ownership warning " + progress}, "edits"},
		{"human edits plan", human, base, with(plan, planV2), []string{"small/ownership warning " + plan}, "edits"},
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
				if !strings.Contains(f.Message, c.verb+" ") || !strings.Contains(f.Message, c.verdict.Evidence) || !strings.Contains(f.Message, "this commit") {
					t.Errorf("message %q lacks %q, the evidence or \"this commit\"", f.Message, c.verb)
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
	if len(got) != 1 || got[0].Commit != u.Commit.Hash || !strings.Contains(got[0].Message, "commit 1a2b3c4d5e6f ") {
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
		{"unknown, an artifact", errCfg, unknown, rulestest.Staged(nil, rulestest.Snapshot{"artifacts/a.md": "x"}), []string{"attribution/unknown error artifacts/a.md"}},
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
				if !strings.Contains(f.Message, "Small-Actor: human") {
					t.Errorf("message does not say how to fix: %s", f.Message)
				}
			}
		})
	}
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "smp", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

const art = "artifacts/llm-context-research.md"

// appendEntry adds a provenance entry by agent at the end of an artifact's
// provenance (before the closing fence).
func appendEntry(t *testing.T, s, agent string) string {
	t.Helper()
	entry := "  - agent: '" + agent + "'\n    action: updated\n    timestamp: '2026-11-22T10:20:00.000Z'\n    message: More\n"
	i := strings.Index(s, "\n---\n")
	if i < 0 {
		t.Fatal("no closing fence")
	}
	return s[:i+1] + entry + s[i+1:]
}

func TestProvenanceAgent(t *testing.T) {
	v2, v3 := fixture(t, "llm-context-research.v2.md"), fixture(t, "llm-context-research.v3.md")
	author := "did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW"
	stranger := appendEntry(t, v3, "did:key:z6MkSomeoneElseEntirely")
	cases := []struct {
		name          string
		verdict       attribution.Verdict
		before, after string
		wantLine      int // 0: no finding
	}{
		{"agent appends as an author", agentClaude, v2, v3, 0},
		{"agent appends as itself", agentClaude, v3, appendEntry(t, v3, "noreply@anthropic.com"), 0},
		{"agent appends as itself, other case", agentClaude, v3, appendEntry(t, v3, "NoReply@Anthropic.com"), 0},
		{"agent appends as a stranger", agentClaude, v3, stranger, strings.Count(stranger[:strings.Index(stranger, "did:key:z6MkSomeoneElseEntirely")], "\n") + 1},
		{"agent verdict naming the stranger", attribution.Verdict{Actor: attribution.Agent, Evidence: "x", Agents: []string{"did:key:z6MkSomeoneElseEntirely"}}, v3, stranger, 0},
		{"agent creates as a stranger", agentClaude, "", stranger, strings.Count(stranger[:strings.Index(stranger, "did:key:z6MkSomeoneElseEntirely")], "\n") + 1},
		{"human appends as a stranger", human, v3, stranger, 0},
		{"unknown appends as a stranger", unknown, v3, stranger, 0},
		{"agent keeps an old stranger entry", agentClaude, stranger, appendEntry(t, stranger, author), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := rulestest.Snapshot{}
			if c.before != "" {
				before[art] = c.before
			}
			got := run(t, nil, c.verdict, rulestest.Staged(before, rulestest.Snapshot{art: c.after}))
			if c.wantLine == 0 {
				if len(got) != 0 {
					t.Errorf("want no finding, got:%s", dump(got))
				}
				return
			}
			if len(got) != 1 || got[0].Rule != "smp/attribution" || got[0].Severity != rules.Warning || got[0].Path != art || got[0].Line != c.wantLine {
				t.Fatalf("want one smp/attribution warning at line %d, got:%s", c.wantLine, dump(got))
			}
			if !strings.Contains(got[0].Message, "did:key:z6MkSomeoneElseEntirely") || !strings.Contains(got[0].Message, "entry 4") {
				t.Errorf("message: %s", got[0].Message)
			}
		})
	}
}

func TestRules(t *testing.T) {
	want := map[string]rules.Severity{"small/ownership": rules.Error, "attribution/unknown": rules.Error, "smp/attribution": rules.Warning}
	rs := Rules()
	if len(rs) != len(want) {
		t.Errorf("%d rules", len(rs))
	}
	for _, r := range rs {
		if sev, ok := want[r.ID]; !ok || sev != r.Severity || r.Doc == "" {
			t.Errorf("rule %s severity %s", r.ID, r.Severity)
		}
	}
}

// artifactWith builds a knowledge artifact authored by did:key:zAuthor.
// Each entry is "AGENT@M": a provenance entry by AGENT at minute M.
func artifactWith(entries ...string) string {
	var b strings.Builder
	b.WriteString("---\nawp: 0.4.0\nsmp: '1.0'\ntype: knowledge-artifact\nid: 'artifact:notes'\ntitle: Notes\nauthors:\n  - 'did:key:zAuthor'\nversion: 1\ncreated: '2026-11-22T10:00:00.000Z'\nprovenance:\n")
	for i, e := range entries {
		agent, minute, _ := strings.Cut(e, "@")
		action := "updated"
		if i == 0 {
			action = "created"
		}
		fmt.Fprintf(&b, "  - agent: '%s'\n    action: %s\n    timestamp: '2026-11-22T10:%02s:00.000Z'\n", agent, action, minute)
	}
	b.WriteString("---\n\nBody.\n")
	return b.String()
}

func TestProvenanceAgentOnlyJudgesNewEntries(t *testing.T) {
	const path = "artifacts/notes.md"
	stranger := "did:key:zStranger"
	a1, a2, a3 := "did:key:zAuthor@01", "did:key:zAuthor@02", "did:key:zAuthor@03"
	s2, s3 := stranger+"@02", stranger+"@03"
	unit := func(before, after string) changes.Unit {
		return rulestest.Staged(rulestest.Snapshot{path: before}, rulestest.Snapshot{path: after})
	}
	merge := func(first, second, after string) changes.Unit {
		u := unit(first, after)
		u.Changes[0].Merge = &changes.Merge{Parents: []*changes.Blob{u.Changes[0].Old, rulestest.Blob(second)}}
		return u
	}
	cases := []struct {
		name string
		unit changes.Unit
		want []int // lines of the findings
	}{
		{"an old stranger entry moves up when another is removed",
			unit(artifactWith(a1, a2, s3), artifactWith(a1, s3)), nil},
		{"a stranger entry is appended after a removal",
			unit(artifactWith(a1, a2), artifactWith(a1, s3)), []int{15}},
		{"a merge brings a stranger entry from the second parent",
			merge(artifactWith(a1), artifactWith(a1, s2), artifactWith(a1, s2, a3)), nil},
		{"without the merge the same entry is new",
			unit(artifactWith(a1), artifactWith(a1, s2, a3)), []int{15}},
		{"a merge whose result adds a stranger entry",
			merge(artifactWith(a1), artifactWith(a1, a2), artifactWith(a1, a2, s3)), []int{18}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var lines []int
			for _, f := range run(t, nil, agentClaude, c.unit) {
				if f.Rule != "smp/attribution" || !strings.Contains(f.Message, stranger) {
					t.Errorf("unexpected finding: %s", dump([]rules.Finding{f}))
				}
				lines = append(lines, f.Line)
			}
			if fmt.Sprint(lines) != fmt.Sprint(c.want) {
				t.Errorf("findings at lines %v, want %v", lines, c.want)
			}
		})
	}
}

func TestTreeModeHasNoActor(t *testing.T) {
	errCfg := config.Default()
	errCfg.Attribution.Unknown = "error"
	files := rulestest.Snapshot{intent: intentV1, constraints: constraintsV1, plan: planV1, progress: progressV1,
		"artifacts/notes.md": artifactWith("did:key:zAuthor@01", "did:key:zStranger@02")}
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
