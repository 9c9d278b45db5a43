package owner

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
)

func run(t *testing.T, v attribution.Verdict, cfg *config.Config, before, after rulestest.Snapshot) []rules.Finding {
	t.Helper()
	if cfg == nil {
		cfg = config.Default()
	}
	u := rulestest.Staged(before, after)
	findings, err := rules.Check([]gitdiff.Unit{u}, rules.Options{Rules: Rules(), Config: cfg,
		Actor: func(*gitdiff.Unit) (attribution.Verdict, error) { return v, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return findings
}

func summary(findings []rules.Finding) string {
	var s []string
	for _, f := range findings {
		s = append(s, f.Rule+":"+string(f.Severity))
	}
	return strings.Join(s, ",")
}

func TestOwnership(t *testing.T) {
	agent := attribution.Verdict{Actor: attribution.Agent, Evidence: "trailer Co-Authored-By: Claude <noreply@anthropic.com>", Agents: []string{"noreply@anthropic.com"}}
	human := attribution.Verdict{Actor: attribution.Human, Evidence: "no agent marker"}
	pending := attribution.Verdict{Actor: attribution.Unknown, Pending: true}
	unknown := attribution.Verdict{Actor: attribution.Unknown, Evidence: "no marker"}
	base := rulestest.Snapshot{intent: "intent: a\n", constraints: "c: 1\n", progress: "p: 1\n", plan: "t: 1\n"}
	edit := func(path, content string) rulestest.Snapshot {
		s := rulestest.Snapshot{}
		for k, v := range base {
			s[k] = v
		}
		if content == "" {
			delete(s, path)
		} else {
			s[path] = content
		}
		return s
	}
	strict := config.Default()
	strict.Attribution.Unknown = "error"
	cases := []struct {
		name  string
		v     attribution.Verdict
		cfg   *config.Config
		after rulestest.Snapshot
		want  string
	}{
		{"agent edits intent", agent, nil, edit(intent, "intent: b\n"), "small/ownership:error"},
		{"agent deletes constraints", agent, nil, edit(constraints, ""), "small/ownership:error"},
		{"agent adds constraints", agent, nil, edit(".small/constraints.small.yml", "c: 2\n"), "small/ownership:error"},
		{"human edits intent", human, nil, edit(intent, "intent: b\n"), ""},
		{"agent edits progress", agent, nil, edit(progress, "p: 2\n"), ""},
		{"human edits progress", human, nil, edit(progress, "p: 2\n"), "small/ownership:warning"},
		{"human edits plan", human, nil, edit(plan, "t: 2\n"), "small/ownership:warning"},
		{"pending verdict waits", pending, nil, edit(intent, "intent: b\n"), ""},
		{"unknown is fine by default", unknown, nil, edit(progress, "p: 2\n"), ""},
		{"unknown is an error when configured", unknown, strict, edit(progress, "p: 2\n"), "attribution/unknown:error"},
		{"pending is not unknown", pending, strict, edit(progress, "p: 2\n"), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := run(t, tc.v, tc.cfg, base, tc.after)
			if summary(got) != tc.want {
				t.Fatalf("got %q, want %q: %+v", summary(got), tc.want, got)
			}
			if tc.want == "small/ownership:error" && !strings.Contains(got[0].Message, "Co-Authored-By: Claude") {
				t.Errorf("the message does not name the evidence: %s", got[0].Message)
			}
		})
	}
}

func TestProvenanceAgent(t *testing.T) {
	artifact := func(agents ...string) string {
		s := "---\nid: 'artifact:a'\nauthors:\n  - 'did:key:z6MkAuthor'\nprovenance:\n"
		for _, a := range agents {
			s += "  - agent: '" + a + "'\n    action: updated\n    timestamp: '2026-01-01T00:00:00Z'\n"
		}
		return s + "---\nbody\n"
	}
	agent := attribution.Verdict{Actor: attribution.Agent, Agents: []string{"noreply@anthropic.com"}}
	before := rulestest.Snapshot{"artifacts/a.md": artifact("did:key:z6MkAuthor")}
	cases := []struct {
		name, added string
		v           attribution.Verdict
		want        string
	}{
		{"an author appends", "did:key:z6MkAuthor", agent, ""},
		{"the committing agent appends", "noreply@anthropic.com", agent, ""},
		{"someone else appends", "did:key:z6MkSomeoneElse", agent, "smp/attribution:warning"},
		{"a human commit is not judged", "did:key:z6MkSomeoneElse", attribution.Verdict{Actor: attribution.Human}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			after := rulestest.Snapshot{"artifacts/a.md": artifact("did:key:z6MkAuthor", tc.added)}
			if got := summary(run(t, tc.v, nil, before, after)); got != tc.want {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
