package smp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules"
)

var (
	agentClaude = attribution.Verdict{
		Actor:    attribution.Agent,
		Evidence: "trailer Co-Authored-By: Claude <noreply@anthropic.com>",
		Agents:   []string{"noreply@anthropic.com"},
	}
)

// runAttribution runs smp/attribution over units, every unit attributed to v.
func runAttribution(t *testing.T, v attribution.Verdict, units ...changes.Unit) []rules.Finding {
	t.Helper()
	got, err := rules.Check(units, rules.Options{
		Rules:  []*rules.Rule{attributionRule(appendOnlyRule())},
		Config: config.Default(),
		Actor:  func(*changes.Unit) (attribution.Verdict, error) { return v, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
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

func TestAttributionOnlyJudgesNewEntries(t *testing.T) {
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
			for _, f := range runAttribution(t, agentClaude, c.unit) {
				if f.Rule != "smp/attribution" || !strings.Contains(f.Text(), "by did:key:zStranger)") {
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
