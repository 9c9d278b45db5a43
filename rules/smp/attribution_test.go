package smp

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
	unknown = attribution.Verdict{Actor: attribution.Unknown, Evidence: "no agent or human marker"}
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

// appendBy adds a provenance entry by agent at the end of an artifact's
// provenance (before the closing fence).
func appendBy(t *testing.T, s, agent string) string {
	t.Helper()
	entry := "  - agent: '" + agent + "'\n    action: updated\n    timestamp: '2026-11-22T10:20:00.000Z'\n    message: More\n"
	i := strings.Index(s, "\n---\n")
	if i < 0 {
		t.Fatal("no closing fence")
	}
	return s[:i+1] + entry + s[i+1:]
}

func TestAttributionOfNewProvenance(t *testing.T) {
	v2, v3 := v2(t), v3(t)
	author := "did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW"
	stranger := appendBy(t, v3, "did:key:z6MkSomeoneElseEntirely")
	cases := []struct {
		name          string
		verdict       attribution.Verdict
		before, after string
		wantLine      int // 0: no finding
	}{
		{"agent appends as an author", agentClaude, v2, v3, 0},
		{"agent appends as itself", agentClaude, v3, appendBy(t, v3, "noreply@anthropic.com"), 0},
		{"agent appends as itself, other case", agentClaude, v3, appendBy(t, v3, "NoReply@Anthropic.com"), 0},
		{"agent appends as a stranger", agentClaude, v3, stranger, strings.Count(stranger[:strings.Index(stranger, "did:key:z6MkSomeoneElseEntirely")], "\n") + 1},
		{"agent verdict naming the stranger", attribution.Verdict{Actor: attribution.Agent, Evidence: "x", Agents: []string{"did:key:z6MkSomeoneElseEntirely"}}, v3, stranger, 0},
		{"agent creates as a stranger", agentClaude, "", stranger, strings.Count(stranger[:strings.Index(stranger, "did:key:z6MkSomeoneElseEntirely")], "\n") + 1},
		{"human appends as a stranger", human, v3, stranger, 0},
		{"unknown appends as a stranger", unknown, v3, stranger, 0},
		{"agent keeps an old stranger entry", agentClaude, stranger, appendBy(t, stranger, author), 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := rulestest.Snapshot{}
			if c.before != "" {
				before[art] = c.before
			}
			got := runAttribution(t, c.verdict, rulestest.Staged(before, rulestest.Snapshot{art: c.after}))
			if c.wantLine == 0 {
				if len(got) != 0 {
					t.Errorf("want no finding, got:%s", dump(got))
				}
				return
			}
			if len(got) != 1 || got[0].Rule != "smp/attribution" || got[0].Severity != rules.Warning || got[0].Path != art || got[0].Line != c.wantLine {
				t.Fatalf("want one smp/attribution warning at line %d, got:%s", c.wantLine, dump(got))
			}
			if !strings.Contains(got[0].Text(), "provenance entry 4 (updated by did:key:z6MkSomeoneElseE…)") {
				t.Errorf("message: %s", got[0].Text())
			}
		})
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
