package scope

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
	"github.com/small-hook/small-hook/rules/smp"
)

func fixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("../../testdata/smp/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// check runs this rule and the SMP rules over u, as the given actor, and
// returns "rule severity path" for each finding, sorted.
func check(t *testing.T, u changes.Unit, actor attribution.Verdict) []string {
	t.Helper()
	all := append(Rules(), smp.Rules()...)
	found, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: all, Config: config.Default(),
		Actor: func(*changes.Unit) (attribution.Verdict, error) { return actor, nil }})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range found {
		out = append(out, fmt.Sprintf("%s %s %s", f.Rule, f.Severity, f.Path))
		if f.Rule == "smp/undeclared" && !strings.Contains(f.Text(), "Small-Rewrite") {
			t.Errorf("the finding does not say how a human retires it: %s", f.Text())
		}
	}
	sort.Strings(out)
	return out
}

func TestUndeclared(t *testing.T) {
	artifact := fixture(t, "quick-note.anonymous.md")
	body := artifact[strings.Index(artifact, "\n---\n")+len("\n---\n"):]
	stripped := "---\ntitle: Quick Note\n---\n" + body
	marker := "templates/clawd/.awp/workspace.json"
	inWorkspace := rulestest.Snapshot{marker: "{}", "templates/clawd/artifacts/quick-note.md": artifact}
	standalone := rulestest.Snapshot{"docs/artifacts/quick-note.md": artifact}
	agent := attribution.Verdict{Actor: attribution.Agent, Evidence: "trailer Co-Authored-By: Claude <noreply@anthropic.com>"}
	human := attribution.Verdict{Actor: attribution.Human, Evidence: "trailer Small-Actor: human"}
	retiring := human
	retiring.Rewrite = "the workspace moves to its own repository"
	agentRetiring := agent
	agentRetiring.Rewrite = "cleanup"
	pending := attribution.Verdict{Actor: attribution.Unknown, Pending: true, Rewrite: "retire"}
	cases := []struct {
		name   string
		before rulestest.Snapshot
		after  rulestest.Snapshot
		actor  attribution.Verdict
		want   []string
	}{
		{"an agent deletes the marker", inWorkspace, inWorkspace.With(marker, ""), agent,
			[]string{"smp/undeclared error " + marker}},
		{"a human deletes the marker without saying why", inWorkspace, inWorkspace.With(marker, ""), human,
			[]string{"smp/undeclared error " + marker}},
		{"a human retires the workspace on purpose", inWorkspace, inWorkspace.With(marker, ""), retiring,
			[]string{"smp/undeclared warning " + marker}},
		{"an agent's Small-Rewrite is not enough", inWorkspace, inWorkspace.With(marker, ""), agentRetiring,
			[]string{"smp/undeclared error " + marker}},
		{"pre-commit stage with SMALL_HOOK_REWRITE", inWorkspace, inWorkspace.With(marker, ""), pending,
			[]string{"smp/undeclared warning " + marker}},
		{"the workspace moves: the old marker is deleted", inWorkspace,
			rulestest.Snapshot{"moved/.awp/workspace.json": "{}", "moved/artifacts/quick-note.md": artifact}, agent,
			[]string{"smp/append-only error templates/clawd/artifacts/quick-note.md", "smp/undeclared error " + marker}},
		{"an artifact's frontmatter stripped in a workspace is a broken artifact", inWorkspace,
			inWorkspace.With("templates/clawd/artifacts/quick-note.md", body), agent,
			[]string{"smp/parse error templates/clawd/artifacts/quick-note.md"}},
		{"a standalone artifact's declaration stripped", standalone, standalone.With("docs/artifacts/quick-note.md", stripped), agent,
			[]string{"smp/undeclared error docs/artifacts/quick-note.md"}},
		{"a standalone artifact retired on purpose", standalone, standalone.With("docs/artifacts/quick-note.md", body), retiring,
			[]string{"smp/undeclared warning docs/artifacts/quick-note.md"}},
		{"the marker is kept", inWorkspace, inWorkspace.With(".awp/workspace.json", "{}"), agent, nil},
		{"a plain note beside nothing declared", nil, rulestest.Snapshot{"docs/artifacts/notes.md": "# Notes\n"}, agent, nil},
		{"a marker that was never there", rulestest.Snapshot{"x/.awp/other.json": "{}"}, rulestest.Snapshot{}, agent, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := check(t, rulestest.Staged(c.before, c.after), c.actor)
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestUndeclaredIsDocumented(t *testing.T) {
	r := Rules()[0]
	if r.ID != "smp/undeclared" || r.Severity != rules.Error || !r.Continuity {
		t.Errorf("rule %s %s continuity %v", r.ID, r.Severity, r.Continuity)
	}
	title, rest, _ := strings.Cut(r.Doc, "\n")
	if title == "" || !strings.Contains(rest, "Small-Rewrite") || !strings.Contains(rest, ".awp/workspace.json") {
		t.Errorf("doc %q", r.Doc)
	}
}
