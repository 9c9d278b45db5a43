package rulestest_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules"
)

// probe is a rule of the family "probe" that reports every new file whose
// content says "bad", with the content of the file as its message: it
// judges each file alone, from its content (Rule.PerWorkspace).
func probe() *rules.Rule {
	return &rules.Rule{ID: "probe/bad", Severity: rules.Error, Doc: "Probe\nReports bad files.", PerWorkspace: true, Run: func(pass *rules.Pass) error {
		for _, ch := range pass.Unit.Changes {
			if ch.New != nil && strings.Contains(string(ch.New.Data), "bad") {
				pass.Report(ch.Path, 1, "%s is %s", ch.Path, strings.TrimSpace(string(ch.New.Data))).Hint("make it good")
			}
		}
		return nil
	}}
}

// check runs the probe over a case written as text.
func check(t *testing.T, text string) []string {
	t.Helper()
	c, err := rulestest.ParseCase([]byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	problems, err := rulestest.Check(c, []*rules.Rule{probe()})
	if err != nil {
		t.Fatal(err)
	}
	return problems
}

// TestCheckFailsOnUnexpectedAndMissingFindings: a case passes only when
// its want lines name exactly the findings, each by path, line, severity,
// rule and a part of its text (the hint included).
func TestCheckFailsOnUnexpectedAndMissingFindings(t *testing.T) {
	const files = "\n-- before/a.txt --\ngood\n-- after/a.txt --\nbad\n"
	cases := []struct {
		name, wants string
		problems    []string
	}{
		{"named exactly", "want a.txt:1: error probe/bad: a.txt is bad\n", nil},
		{"by a part of the message", "want a.txt:1: error probe/bad: is bad\n", nil},
		{"by a part of the hint", "want a.txt:1: error probe/bad: make it good\n", nil},
		{"unexpected", "", []string{"unexpected finding: want a.txt:1: error probe/bad: a.txt is bad"}},
		{"another line", "want a.txt:2: error probe/bad: a.txt is bad\n", []string{"unexpected finding", "line 1: no finding matches want a.txt:2:"}},
		{"another severity", "want a.txt:1: warning probe/bad: a.txt is bad\n", []string{"unexpected finding", "no finding matches"}},
		{"another text", "want a.txt:1: error probe/bad: a.txt is worse\n", []string{"unexpected finding", "no finding matches"}},
		{"one finding, two wants", "want a.txt:1: error probe/bad: bad\nwant a.txt:1: error probe/bad: bad\n", []string{"line 2: no finding matches"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := check(t, c.wants+files)
			if len(got) != len(c.problems) {
				t.Fatalf("problems %q, want %d like %q", got, len(c.problems), c.problems)
			}
			for i, p := range c.problems {
				if !strings.Contains(got[i], p) {
					t.Errorf("problem %q lacks %q", got[i], p)
				}
			}
		})
	}
	if got := check(t, "want b.txt:1: error probe/bad: bad\n\n-- a.txt --\nbad\n"); len(got) != 1 || !strings.Contains(got[0], "no finding matches want b.txt:1") {
		t.Errorf("an unchanged file is no change: %q", got)
	}
}

// TestParseCaseBuildsTheUnitTheStatesDescribe: context files are in every
// state, before/ and after/ make the changes, a merge's parents and bases
// give each change its versions, and the trusted revision's configuration
// and the actor are the case's.
func TestParseCaseBuildsTheUnitTheStatesDescribe(t *testing.T) {
	text := `# A merge.
mode range
commit 1111111111111111111111111111111111111111
parents 2222222222222222222222222222222222222222 3333333333333333333333333333333333333333
actor agent
evidence trailer Co-Authored-By: Claude <noreply@anthropic.com>
pending
symlink link.txt

-- .small-hook.yml --
rules:
  small/human-edit: warning
-- same.txt --
same
-- before/gone.txt --
gone
-- before/merged.txt --
ours
-- parent2/merged.txt --
theirs
-- base/merged.txt --
base
-- after/merged.txt --
both
-- after/link.txt --
target
`
	c, err := rulestest.ParseCase([]byte(text), nil)
	if err != nil {
		t.Fatal(err)
	}
	u := c.Unit
	if u.Mode != changes.ModeRange || u.Commit.Hash != strings.Repeat("1", 40) || len(u.Commit.Parents) != 2 {
		t.Errorf("unit %+v, commit %+v", u, u.Commit)
	}
	var paths []string
	for _, ch := range u.Changes {
		paths = append(paths, ch.Path)
	}
	if want := []string{"gone.txt", "link.txt", "merged.txt"}; !slices.Equal(paths, want) {
		t.Fatalf("changes %q, want %q", paths, want)
	}
	gone, link, merged := u.Changes[0], u.Changes[1], u.Changes[2]
	if gone.New != nil || string(gone.Old.Data) != "gone\n" || len(gone.Merge.Parents) != 2 || gone.Merge.Parents[1] != nil {
		t.Errorf("gone.txt: %+v", gone)
	}
	if link.New.Kind != changes.KindSymlink {
		t.Errorf("link.txt is a %s", link.New.Kind)
	}
	if b, _ := u.Files.Read("link.txt"); b == nil || b.Kind != changes.KindSymlink {
		t.Errorf("the snapshot reads link.txt as %+v", b)
	}
	m := merged.Merge
	if string(merged.Old.Data) != "ours\n" || string(merged.New.Data) != "both\n" || string(m.Parents[1].Data) != "theirs\n" || string(m.Base.Data) != "base\n" {
		t.Errorf("merged.txt: %+v %+v", merged, m)
	}
	if s, _ := u.Files.Read("same.txt"); s == nil || string(s.Data) != "same\n" {
		t.Errorf("same.txt after the change: %+v", s)
	}
	if c.Config.Rules["small/human-edit"].Severity != "warning" {
		t.Errorf("configuration %+v", c.Config.Rules)
	}
	if a := c.Actor; a == nil || a.Actor != attribution.Agent || !a.Pending || !strings.Contains(a.Evidence, "Claude") {
		t.Errorf("actor %+v", a)
	}
}

// TestParseCaseRefusesWhatItCannotRead: a mistake in a case is an error
// that names it, never a case that silently tests less.
func TestParseCaseRefusesWhatItCannotRead(t *testing.T) {
	cases := map[string]string{
		"an unknown directive": "wnat a.txt:1: error probe/bad: x\n",
		"a malformed want":     "want a.txt error probe/bad\n",
		"an unknown mode":      "mode history\n",
		"a file given twice":   "\n-- a.txt --\n-- a.txt --\n",
		"a state and context":  "\n-- a.txt --\n-- after/a.txt --\n",
		"a state in a tree":    "mode tree\n\n-- before/a.txt --\n",
		"an unknown value":     "\n-- a.txt --\n@@nothing@@\n",
		"a broken config":      "\n-- .small-hook.yml --\nrules: [\n",
	}
	for name, text := range cases {
		if _, err := rulestest.ParseCase([]byte(text), nil); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	c, err := rulestest.ParseCase([]byte("\n-- after/a.txt --\n@@token@@\n"), map[string]string{"token": "bad"})
	if err != nil || string(c.Unit.Changes[0].New.Data) != "bad\n" {
		t.Errorf("@@token@@: %v %+v", err, c)
	}
}

// TestLoadWantsACaseEachWayForEveryRule: every rule of the family needs a
// case where it reports a finding and one where it reports nothing, and a
// directory must name a rule of the family.
func TestLoadWantsACaseEachWayForEveryRule(t *testing.T) {
	dir := t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, path), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts := rulestest.Options{Family: "probe", Rules: []*rules.Rule{probe()}}
	write("bad/reports.txtar", "want a.txt:1: error probe/bad: bad\n\n-- after/a.txt --\nbad\n")
	cases, problems := rulestest.Load(dir, opts)
	if len(cases) != 1 || cases[0].Name != "bad/reports" || len(problems) != 1 || !strings.Contains(problems[0], "no case in "+filepath.Join(dir, "bad")+" where probe/bad reports nothing") {
		t.Errorf("cases %d, problems %q", len(cases), problems)
	}
	write("bad/silent.txtar", "\n-- after/a.txt --\ngood\n")
	write("good/x.txtar", "")
	write("bad/broken.txtar", "mode nonsense\n")
	cases, problems = rulestest.Load(dir, opts)
	if len(cases) != 2 || len(problems) != 2 || !strings.Contains(problems[0], "broken.txtar: line 1: mode") || !strings.Contains(problems[1], "no rule of the family probe is named good") {
		t.Errorf("cases %d, problems %q", len(cases), problems)
	}
}
