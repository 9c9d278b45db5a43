package smp

import (
	"os"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
)

const artifactPath = "artifacts/llm-context-research.md"

func fixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("../../testdata/smp/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// findings runs the SMP rules over one staged change of the artifact and
// returns "rule:severity" for each finding.
func findings(t *testing.T, cfg *config.Config, old, cur string) []string {
	t.Helper()
	before, after := rulestest.Snapshot{}, rulestest.Snapshot{}
	if old != "" {
		before[artifactPath] = old
	}
	if cur != "" {
		after[artifactPath] = cur
	}
	if cfg == nil {
		cfg = config.Default()
	}
	got, err := rules.Check([]gitdiff.Unit{rulestest.Staged(before, after)}, rules.Options{Rules: Rules(), Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range got {
		if f.Line < 0 || (f.Line == 0 && cur != "") {
			t.Errorf("finding without a line: %+v", f)
		}
		out = append(out, f.Rule+":"+string(f.Severity))
	}
	return out
}

func TestRealHistory(t *testing.T) {
	versions := []string{"", fixture(t, "llm-context-research.v1.md"), fixture(t, "llm-context-research.v2.md"), fixture(t, "llm-context-research.v3.md")}
	for i := 1; i < len(versions); i++ {
		if got := findings(t, nil, versions[i-1], versions[i]); len(got) > 0 {
			t.Errorf("v%d: %v", i, got)
		}
	}
	got := findings(t, nil, versions[3], fixture(t, "llm-context-research.v4-merged.md"))
	if strings.Join(got, ",") != "smp/merge:warning" {
		t.Errorf("v4: %v, want only the warning for the missing merge source", got)
	}
}

func TestVersionArithmetic(t *testing.T) {
	v3 := fixture(t, "llm-context-research.v3.md")
	entry := func(action string) string {
		return "  - agent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'\n    action: " + action + "\n    timestamp: '2026-11-22T10:10:00.000Z'\n"
	}
	with := func(version string, entries ...string) string {
		s := strings.Replace(v3, "version: 3", "version: "+version, 1)
		return strings.Replace(s, "\n---\n\n# LLM", "\n"+strings.Join(entries, "")+"---\n\n# LLM", 1) + "\nchange\n"
	}
	cases := []struct {
		name, cur, want string
	}{
		{"updated raises by one", with("4", entry("updated")), ""},
		{"updated without a raise", with("3", entry("updated")), "smp/version:error"},
		{"updated raised twice", with("5", entry("updated")), "smp/version:error"},
		{"two updates raise by two", with("5", entry("updated"), strings.Replace(entry("updated"), "10:10", "10:11", 1)), ""},
		{"synced without a raise", with("3", entry("synced")), ""},
		{"synced with a raise", with("4", entry("synced")), ""},
		{"version goes down", with("2", entry("updated")), "smp/version:error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(findings(t, nil, v3, tc.cur), ","); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if got := findings(t, nil, "", strings.Replace(v3, "version: 3", "version: 2", 1)); strings.Join(got, ",") != "smp/version:error" {
		t.Errorf("a new artifact below its entry count: %v", got)
	}
}

func TestSyncReplace(t *testing.T) {
	v3 := fixture(t, "llm-context-research.v3.md")
	synced := func(ts string) string {
		return strings.Replace(v3, "\n---\n\n# LLM", "\n  - agent: unknown\n    action: synced\n    timestamp: '"+ts+"'\n---\n\n# LLM", 1)
	}
	old, cur := synced("2026-11-22T10:10:00.000Z"), synced("2026-11-22T10:11:00.000Z")
	if got := strings.Join(findings(t, nil, old, cur), ","); got != "smp/append-only:error" {
		t.Errorf("default: %q", got)
	}
	cfg := config.Default()
	cfg.SMP.SyncReplace = "warning"
	if got := strings.Join(findings(t, cfg, old, cur), ","); got != "smp/append-only:warning" {
		t.Errorf("with sync-replace: warning: %q", got)
	}
}

func TestOnlyArtifactsAreJudged(t *testing.T) {
	before := rulestest.Snapshot{}
	after := rulestest.Snapshot{"artifacts/x.md.bak": "not frontmatter", "artifacts/sub/y.md": "no", "artifacts/README.txt": "x"}
	got, err := rules.Check([]gitdiff.Unit{rulestest.Staged(before, after)}, rules.Options{Rules: Rules(), Config: config.Default()})
	if err != nil || len(got) > 0 {
		t.Errorf("%v %+v", err, got)
	}
}
