package smp

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules"
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

// The tests below judge every SMP rule over the awp-written fixtures, with
// the rule ID, severity and line of each finding.

// art is where the llm-context-research fixtures live in a repository.
const art = artifactPath

func v1(t *testing.T) string { return fixture(t, "llm-context-research.v1.md") }
func v2(t *testing.T) string { return fixture(t, "llm-context-research.v2.md") }
func v3(t *testing.T) string { return fixture(t, "llm-context-research.v3.md") }
func v4(t *testing.T) string { return fixture(t, "llm-context-research.v4-merged.md") }

// replace replaces the only occurrence of old in s, failing the test when
// old does not occur exactly once (so that a mutation is never a no-op).
func replace(t *testing.T, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 {
		t.Fatalf("mutation: %q occurs %d times, want 1", old, n)
	}
	return strings.Replace(s, old, new, 1)
}

// splitProvenance cuts a fixture into the text before its first
// provenance entry, the entries, and the text from the closing fence on.
func splitProvenance(t *testing.T, s string) (head string, entries []string, tail string) {
	t.Helper()
	const marker = "provenance:\n"
	i := strings.Index(s, marker)
	if i < 0 {
		t.Fatal("no provenance in fixture")
	}
	i += len(marker)
	j := strings.Index(s[i:], "\n---\n")
	if j < 0 {
		t.Fatal("no closing fence in fixture")
	}
	j += i + 1
	for _, e := range strings.SplitAfter(s[i:j], "\n") {
		switch {
		case e == "":
		case strings.HasPrefix(e, "  - "):
			entries = append(entries, e)
		default:
			entries[len(entries)-1] += e
		}
	}
	return s[:i], entries, s[j:]
}

func joinProvenance(head string, entries []string, tail string) string {
	return head + strings.Join(entries, "") + tail
}

// entryLine is the line of provenance entry i (0-based) of s.
func entryLine(t *testing.T, s string, i int) int {
	t.Helper()
	head, entries, _ := splitProvenance(t, s)
	line := strings.Count(head, "\n") + 1
	for k := 0; k < i; k++ {
		line += strings.Count(entries[k], "\n")
	}
	return line
}

// commit builds a range-mode unit for one commit.
func commit(hash string, before, after rulestest.Snapshot) changes.Unit {
	u := rulestest.Staged(before, after)
	u.Mode = changes.ModeRange
	u.Commit = &changes.Commit{Hash: hash, Message: "awp commit\n", Author: changes.Identity{Name: "A", Email: "a@example.com"}}
	return u
}

// check runs every SMP rule over units.
func check(t *testing.T, cfg *config.Config, units ...changes.Unit) []rules.Finding {
	t.Helper()
	if cfg == nil {
		cfg = config.Default()
	}
	got, err := rules.Check(units, rules.Options{Rules: Rules(), Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func dump(fs []rules.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\n  %s %s %s:%d %s", f.Rule, f.Severity, f.Path, f.Line, f.Text())
	}
	return b.String()
}

// want is one expected finding. line is the exact expected line; -1 means
// "any line above 0".
type want struct {
	rule string
	sev  rules.Severity
	line int
}

// expect checks that every wanted finding is there; with exact, that there
// is nothing else.
func expect(t *testing.T, got []rules.Finding, exact bool, wants ...want) {
	t.Helper()
	used := make([]bool, len(got))
	for _, w := range wants {
		found := false
		for i, f := range got {
			if used[i] || f.Rule != w.rule || f.Severity != w.sev {
				continue
			}
			if w.line == -1 && f.Line <= 0 || w.line >= 0 && f.Line != w.line {
				continue
			}
			used[i], found = true, true
			break
		}
		if !found {
			t.Errorf("missing %s %s at line %d; got:%s", w.rule, w.sev, w.line, dump(got))
		}
	}
	if exact && len(got) != len(wants) {
		t.Errorf("got %d findings, want %d:%s", len(got), len(wants), dump(got))
	}
	for _, f := range got {
		if f.Path == "" || f.Text() == "" {
			t.Errorf("finding without path or message: %+v", f)
		}
	}
}

func TestAWPHistoryAsCommits(t *testing.T) {
	s1 := rulestest.Snapshot{art: v1(t)}
	s2 := rulestest.Snapshot{art: v2(t)}
	s3 := rulestest.Snapshot{art: v3(t)}
	s4 := rulestest.Snapshot{art: v4(t)}
	units := []changes.Unit{
		commit(strings.Repeat("1", 40), nil, s1),
		commit(strings.Repeat("2", 40), s1, s2),
		commit(strings.Repeat("3", 40), s2, s3),
		commit(strings.Repeat("4", 40), s3, s4),
	}
	got := check(t, nil, units...)
	expect(t, got, true, want{"smp/merge", rules.Warning, entryLine(t, v4(t), 3)})
	if len(got) == 1 {
		if got[0].Commit != strings.Repeat("4", 40) || got[0].Path != art {
			t.Errorf("merge warning on commit %q path %q", got[0].Commit, got[0].Path)
		}
		if !strings.Contains(got[0].Text(), "artifact:transformer-analysis") {
			t.Errorf("merge warning does not name the missing source: %s", got[0].Text())
		}
	}
}

// TestBOMAndCRLF: awp's files with a byte order mark and CRLF line
// endings (bytes a case file does not keep) are the same artifact, as a
// change, as a tree, and as the old version of a change.
func TestBOMAndCRLF(t *testing.T) {
	bomCRLF := "\ufeff" + strings.ReplaceAll(v1(t), "\n", "\r\n")
	for name, u := range map[string]changes.Unit{
		"a copy of v1, as a change": rulestest.Staged(rulestest.Snapshot{art: v1(t)}, rulestest.Snapshot{art: bomCRLF}),
		"a copy of v1, as a tree":   rulestest.Tree(rulestest.Snapshot{art: bomCRLF}),
		"from it to v2":             rulestest.Staged(rulestest.Snapshot{art: bomCRLF}, rulestest.Snapshot{art: v2(t)}),
	} {
		t.Run(name, func(t *testing.T) {
			if len(u.Changes) != 1 {
				t.Fatalf("unit has %d changes, want 1", len(u.Changes))
			}
			expect(t, check(t, nil, u), true)
		})
	}
}

// TestRulesAreDocumented checks every rule's ID, severity and doc.
func TestRulesAreDocumented(t *testing.T) {
	ids := map[string]rules.Severity{
		"smp/parse": rules.Error, "smp/schema": rules.Error, "smp/id": rules.Error,
		"smp/append-only": rules.Error, "smp/version": rules.Error, "smp/provenance": rules.Error,
		"smp/unrecorded-change": rules.Error, "smp/merge": rules.Warning, "smp/attribution": rules.Warning,
		"smp/undeclared": rules.Error,
	}
	rs := Rules()
	if len(rs) != len(ids) {
		t.Errorf("%d rules, want %d", len(rs), len(ids))
	}
	for _, r := range rs {
		sev, ok := ids[r.ID]
		if !ok {
			t.Errorf("unexpected rule %s", r.ID)
			continue
		}
		if r.Severity != sev || r.Doc == "" || r.Run == nil {
			t.Errorf("rule %s: severity %s, doc %q", r.ID, r.Severity, r.Doc)
		}
	}
}
