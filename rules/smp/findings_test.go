package smp

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
)

// judge runs every SMP rule over one staged change of the artifact with
// the configuration yml.
func judge(t *testing.T, yml, before, after string) []rules.Finding {
	t.Helper()
	cfg, err := config.Load([]byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	b := rulestest.Snapshot{}
	if before != "" {
		b[art] = before
	}
	return edgeCheck(t, cfg, rulestest.Staged(b, rulestest.Snapshot{art: after}))
}

// TestSmpVersionByValue: however the version is spelled, its value is
// judged.
func TestSmpVersionByValue(t *testing.T) {
	with := func(version string) string {
		s := edgeAppend(t, v3(t), edgeUpdated("2026-11-22T10:10:00.000Z", "More"))
		return replace(t, s, "version: 3", "version: "+version) + "\nMore.\n"
	}
	cases := []struct {
		version string
		want    []finding
	}{
		{"4", nil},
		{"4.0", nil},
		{"4.000", nil},
		{"0.4e1", nil},
		{"99.0", []finding{{"smp/version", rules.Error, "version rose by 96 (3 to 99.0) but 1 updated/merged provenance entries were added"}}},
		{"1.0e300", []finding{{"smp/version", rules.Error, "set version to 4"}}},
		{"99999999999999999999", []finding{{"smp/version", rules.Error, "set version to 4"}}},
		{"2.0", []finding{{"smp/version", rules.Error, "version went down from 3 to 2.0"}}},
		{"4.5", []finding{{"smp/schema", rules.Error, "/version"}}},
		{"'4'", []finding{{"smp/schema", rules.Error, "/version"}}},
	}
	for _, c := range cases {
		t.Run(c.version, func(t *testing.T) {
			edgeMatch(t, judge(t, "", v3(t), with(c.version)), c.want)
		})
	}
	// A new artifact: version 0.0 is below the schema's minimum, once.
	edgeMatch(t, judge(t, "", "", replace(t, v1(t), "version: 1", "version: 0.0")), []finding{{"smp/schema", rules.Error, "/version"}})
	edgeMatch(t, judge(t, "", "", replace(t, v3(t), "version: 3", "version: 2.0")), []finding{{"smp/version", rules.Error, "version 2.0 is below the 3 created, updated and merged provenance entries"}})
}

// TestSmpOneProblemOneFinding: a change with one problem gets one finding,
// from the rule that tells the truth about it.
func TestSmpOneProblemOneFinding(t *testing.T) {
	h, e, tail := splitProvenance(t, v3(t))
	created := e[0]
	cases := []struct {
		name   string
		before string
		after  string
		want   []finding
	}{
		{"the created entry rewritten as an update", v3(t), joinProvenance(h, append([]string{replace(t, created, "action: created", "action: updated")}, e[1:]...), tail),
			[]finding{{"smp/append-only", rules.Error, "provenance entry 1 (created by did:key:z6MkvmWSVtpUTrKQ…) of the previous version was replaced by a different entry"}}},
		{"the created entry's agent replaced", v3(t), joinProvenance(h, append([]string{replace(t, created, didA, "did:key:z6MkImpostor")}, e[1:]...), tail),
			[]finding{{"smp/append-only", rules.Error, "provenance entry 1 (created by did:key:z6MkvmWSVtpUTrKQ…) of the previous version was replaced by a different entry"}}},
		{"created moved and the body edited", v3(t), replace(t, replace(t, v3(t), "created: '2026-11-22T10:09:02.571Z'", "created: '2020-01-01T00:00:00.000Z'"), "| A | 128k |", "| A | 1M |"),
			[]finding{{"smp/append-only", rules.Error, "created changed from 2026-11-22T10:09:02.571Z to 2020-01-01T00:00:00.000Z"}}},
		{"an old entry edited to cover a body edit", v3(t), replace(t, replace(t, v3(t), "message: Added summary", "message: Added summary and more"), "| A | 128k |", "| A | 1M |"),
			[]finding{{"smp/append-only", rules.Error, "was changed: message differs"}}},
		{"an entry removed and the version lowered", v3(t), replace(t, joinProvenance(h, e[:2], tail), "version: 3", "version: 2"),
			[]finding{{"smp/append-only", rules.Error, "provenance entry 3 (updated by did:key:z6MkvmWSVtpUTrKQ…) of the previous version was removed"}}},
		{"an author removed, nothing recorded", v4(t), replace(t, v4(t), "  - 'did:key:z6Mko64x75DDgiVmhP2DoegyEgiq5tVejzcqzYB8tJt4VR2q'\n", ""),
			[]finding{{"smp/provenance", rules.Error, "authors lost did:key:z6Mko64x75DDgiVmhP2DoegyEgiq5tVejzcqzYB8tJt4VR2q"}}},
		{"the id changed, nothing recorded", v3(t), replace(t, v3(t), "id: 'artifact:llm-context-research'", "id: 'artifact:other'"),
			[]finding{{"smp/id", rules.Error, `id changed from "artifact:llm-context-research" to "artifact:other"`}}},
		{"the id changes case", v3(t), replace(t, v3(t), "id: 'artifact:llm-context-research'", "id: 'artifact:LLM-Context-Research'"),
			[]finding{{"smp/id", rules.Error, `id changed from "artifact:llm-context-research" to "artifact:LLM-Context-Research"`}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			edgeMatch(t, judge(t, "", c.before, c.after), c.want)
		})
	}
}

// TestSmpConsequencesComeBackWithoutTheirCause: the rules stay silent
// about a rewrite's consequences only while smp/append-only reports it.
func TestSmpConsequencesComeBackWithoutTheirCause(t *testing.T) {
	h, e, tail := splitProvenance(t, v3(t))
	after := joinProvenance(h, append([]string{replace(t, e[0], "action: created", "action: updated")}, e[1:]...), tail)
	got := judge(t, "rules:\n  smp/append-only: off\n", v3(t), after)
	var ids []string
	for _, f := range got {
		ids = append(ids, f.Rule)
	}
	if strings.Join(ids, " ") != "smp/version smp/provenance" {
		t.Errorf("with smp/append-only off: %q, want the provenance and version findings back:%s", ids, dump(got))
	}
}

// TestSmpMessagesAreBounded: no message repeats more than a short prefix
// of a value from the file.
func TestSmpMessagesAreBounded(t *testing.T) {
	long := strings.Repeat("x", 3000)
	h, e, tail := splitProvenance(t, v3(t))
	cases := map[string][2]string{
		"created":            {v3(t), replace(t, v3(t), "created: '2026-11-22T10:09:02.571Z'", "created: '"+long+"'")},
		"id":                 {v3(t), replace(t, v3(t), "id: 'artifact:llm-context-research'", "id: 'artifact:"+long+"'")},
		"new id":             {"", replace(t, v3(t), "id: 'artifact:llm-context-research'", "id: '"+long+"'")},
		"awp pattern":        {"", replace(t, v3(t), "awp: 0.4.0", "awp: '"+long+"'")},
		"unexpected type":    {"", replace(t, v3(t), "type: knowledge-artifact", "type: '"+long+"'")},
		"author lost":        {replace(t, v3(t), "authors:\n", "authors:\n  - '"+long+"'\n"), v3(t)},
		"agent of an entry":  {v3(t), joinProvenance(h, append(append([]string{}, e...), "  - agent: '"+long+"'\n    action: created\n    timestamp: '2026-11-22T10:10:00.000Z'\n"), tail)},
		"a changed key name": {v3(t), joinProvenance(h, append([]string{replace(t, e[0], "    action: created\n", "    action: created\n    "+long+": 1\n")}, e[1:]...), tail)},
		"a metadata key":     {v3(t), replace(t, v3(t), "title: LLM", long+": 1\ntitle: LLM")},
		"the version":        {v3(t), replace(t, v3(t), "version: 3", "version: 1"+strings.Repeat("0", 3000))},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			got := judge(t, "", c[0], c[1])
			if len(got) == 0 {
				t.Fatal("no finding")
			}
			for _, f := range got {
				if strings.Contains(f.Text(), strings.Repeat("x", 2*valueLength+1)) || strings.Contains(f.Text(), strings.Repeat("0", 2*valueLength+1)) || len(f.Text()) > 1200 {
					t.Errorf("%s repeats a long value (%d bytes): %.200s…", f.Rule, len(f.Text()), f.Text())
				}
			}
		})
	}
}

// TestSmpParseMessagesAreBounded: a frontmatter error that quotes the
// file (a duplicate key, a bad value) repeats only a prefix of it.
func TestSmpParseMessagesAreBounded(t *testing.T) {
	long := strings.Repeat("y", 3000)
	for name, after := range map[string]string{
		"duplicate key": replace(t, v3(t), "version: 3\n", "version: 3\n"+long+": 1\n"+long+": 2\n"),
		"bad YAML":      replace(t, v3(t), "version: 3\n", "version: [3\n"+long+"\n"),
	} {
		got := judge(t, "", v3(t), after)
		if len(got) != 1 || got[0].Rule != "smp/parse" {
			t.Fatalf("%s: %+v", name, got)
		}
		if strings.Contains(got[0].Text(), strings.Repeat("y", 2*valueLength+1)) || !strings.Contains(got[0].Text(), "fix the frontmatter here") {
			t.Errorf("%s: %.300s", name, got[0].Text())
		}
	}
}

// TestSmpRenamedArtifact: renaming an artifact, even with its id made to
// match the new name, or out of the way as an awp backup, is the deletion
// of the old one.
func TestSmpRenamedArtifact(t *testing.T) {
	renamed := replace(t, v3(t), "id: 'artifact:llm-context-research'", "id: 'artifact:context-research'")
	for name, after := range map[string]rulestest.Snapshot{
		"renamed with its id": {"artifacts/context-research.md": renamed},
		"moved to a backup":   {art + ".bak": v3(t)},
		"moved into a folder": {"artifacts/old/llm-context-research.md": v3(t)},
	} {
		t.Run(name, func(t *testing.T) {
			got := edgeCheck(t, config.Default(), rulestest.Staged(rulestest.Snapshot{art: v3(t)}, after))
			edgeMatch(t, got, []finding{{"smp/append-only", rules.Error, art + " was deleted (or renamed)"}})
		})
	}
}
