package smp

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules"
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
