package rules_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules"
)

// probe is a rule that reports one finding per change it is handed, at
// sev (Report when sev is empty), and counts its runs.
type probe struct {
	rule  *rules.Rule
	runs  int
	paths []string
}

func newProbe(id string, sev rules.Severity, family bool) *probe {
	p := &probe{}
	p.rule = &rules.Rule{ID: id, Severity: rules.Error, Doc: "Probe\nReports every change.", Run: func(pass *rules.Pass) error {
		p.runs++
		for _, ch := range pass.Unit.Changes {
			p.paths = append(p.paths, ch.Path)
			switch {
			case family:
				pass.ReportAs(id+"/a", rules.Error, ch.Path, 1, "a")
				pass.ReportAs(id+"/b", rules.Error, ch.Path, 1, "b")
			case sev != "":
				pass.ReportSeverity(sev, ch.Path, 1, "found")
			default:
				pass.Report(ch.Path, 1, "found")
			}
		}
		return nil
	}}
	return p
}

func load(t *testing.T, yml string) *config.Config {
	t.Helper()
	cfg, err := config.Load([]byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func oneChange() changes.Unit {
	return rulestest.Staged(rulestest.Snapshot{}, rulestest.Snapshot{".small/plan.small.yml": "x"})
}

func summary(fs []rules.Finding) string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%s:%s", f.Rule, f.Severity, f.Path))
	}
	return strings.Join(out, " ")
}

func TestConfigSeverities(t *testing.T) {
	cases := []struct {
		name, yml string
		sev       rules.Severity // what the probe reports with; "" is its default
		want      string
		runs      int
	}{
		{"default", "", "", "x/y:error:.small/plan.small.yml", 1},
		{"set to warning", "rules:\n  x/y: warning\n", "", "x/y:warning:.small/plan.small.yml", 1},
		{"a rule's own warning raised to error", "rules:\n  x/y: error\n", rules.Warning, "x/y:error:.small/plan.small.yml", 1},
		{"a rule's own warning lowered stays a warning", "rules:\n  x/y: warning\n", rules.Error, "x/y:warning:.small/plan.small.yml", 1},
		{"turned off: never run", "rules:\n  x/y: off\n", "", "", 0},
		{"another rule's setting changes nothing", "rules:\n  x/z: off\n", "", "x/y:error:.small/plan.small.yml", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newProbe("x/y", tc.sev, false)
			other := newProbe("x/z", "", false)
			got, err := rules.Check([]changes.Unit{oneChange()}, rules.Options{Rules: []*rules.Rule{p.rule, other.rule}, Config: load(t, tc.yml)})
			if err != nil {
				t.Fatal(err)
			}
			var mine []rules.Finding
			for _, f := range got {
				if f.Rule == "x/y" {
					mine = append(mine, f)
				}
			}
			if summary(mine) != tc.want || p.runs != tc.runs {
				t.Errorf("got %q after %d runs, want %q after %d", summary(mine), p.runs, tc.want, tc.runs)
			}
		})
	}
}

func TestConfigTurnsOnARuleThatIsOffByDefault(t *testing.T) {
	for _, tc := range []struct{ yml, want string }{
		{"", ""},
		{"rules:\n  x/opt: off\n", ""},
		{"rules:\n  x/opt: warning\n", "x/opt:warning:.small/plan.small.yml"},
		{"rules:\n  x/opt: error\n", "x/opt:error:.small/plan.small.yml"},
	} {
		p := newProbe("x/opt", rules.Warning, false)
		p.rule.OffByDefault = true
		got, err := rules.Check([]changes.Unit{oneChange()}, rules.Options{Rules: []*rules.Rule{p.rule}, Config: load(t, tc.yml)})
		if err != nil {
			t.Fatal(err)
		}
		if summary(got) != tc.want || (tc.want == "") != (p.runs == 0) {
			t.Errorf("%q: got %q after %d runs, want %q", tc.yml, summary(got), p.runs, tc.want)
		}
	}
}

func TestConfigFamilies(t *testing.T) {
	const path = ".small/plan.small.yml"
	cases := []struct{ yml, want string }{
		{"", "fam/a:error:" + path + " fam/b:error:" + path},
		{"rules:\n  fam: warning\n", "fam/a:warning:" + path + " fam/b:warning:" + path},
		{"rules:\n  fam/a: off\n", "fam/b:error:" + path},
		{"rules:\n  fam: warning\n  fam/b: error\n", "fam/a:warning:" + path + " fam/b:error:" + path},
		{"rules:\n  fam: off\n  fam/b: warning\n", "fam/b:warning:" + path},
		{"rules:\n  fam: off\n", ""},
		{"rules:\n  fam/unknown-name: off\n", "fam/a:error:" + path + " fam/b:error:" + path},
	}
	for _, tc := range cases {
		p := newProbe("fam", "", true)
		got, err := rules.Check([]changes.Unit{oneChange()}, rules.Options{Rules: []*rules.Rule{p.rule}, Config: load(t, tc.yml)})
		if err != nil {
			t.Fatal(err)
		}
		if summary(got) != tc.want {
			t.Errorf("%q: got %q, want %q", tc.yml, summary(got), tc.want)
		}
	}
}

func TestConfigUnknownRuleID(t *testing.T) {
	cases := []struct {
		yml  string
		line int
		id   string
	}{
		{"rules:\n  x/y: off\n  x/yy: warning\n", 3, "x/yy"},
		{"# typo\nrules:\n  smp/verison: off\n", 3, "smp/verison"},
		{"rules: {x/q: off, x/p: off}\n", 1, "x/p"},
		{"rules:\n  x/y/z: off\n", 2, ""},
		{"rules:\n  x: off\n", 2, "x"},
		{"rules:\n  fam/a: off\n  x/y/extra: off\n", 3, ""},
		{"rules:\n  x/y/: off\n", 2, ""},
	}
	for _, tc := range cases {
		cfg, err := config.Load([]byte(tc.yml))
		if err == nil {
			err = rules.ValidateSettings(cfg, []*rules.Rule{newProbe("x/y", "", false).rule, newProbe("fam", "", true).rule})
		}
		var ce *config.Error
		if !errors.As(err, &ce) || ce.Line != tc.line || !strings.Contains(ce.Msg, tc.id) {
			t.Errorf("%q: %v, want an error at line %d naming %q", tc.yml, err, tc.line, tc.id)
		}
		if cfg == nil {
			continue
		}
		// The checker refuses to run with it, whatever the units.
		p := newProbe("x/y", "", false)
		_, err = rules.Check([]changes.Unit{oneChange()}, rules.Options{Rules: []*rules.Rule{p.rule, newProbe("fam", "", true).rule}, Config: cfg})
		if !errors.As(err, &ce) || ce.Line != tc.line || p.runs != 0 {
			t.Errorf("%q: Check returned %v after %d runs, want the configuration error", tc.yml, err, p.runs)
		}
	}
	if err := rules.ValidateSettings(load(t, "rules:\n  x/y: off\n  fam/anything-at-all: off\n"), []*rules.Rule{newProbe("x/y", "", false).rule, newProbe("fam", "", true).rule}); err != nil {
		t.Errorf("known IDs: %v", err)
	}
}

func TestConfigExcludedPaths(t *testing.T) {
	before := rulestest.Snapshot{}
	after := rulestest.Snapshot{
		".small/plan.small.yml":                                "x",
		"spec/small/v0.1/examples/.small/intent.small.yml":     "x",
		"spec/small/v0.1/examples/artifacts/a.md":              "x",
		"spec/small/v1.0.0/examples/.small/intent.small.yml":   "x",
		"spec/small/v0.1/examples-other/.small/plan.small.yml": "x",
	}
	cfg := load(t, "exclude:\n  - spec/small/v0.1/examples\n")
	protocol := newProbe("x/y", "", false)
	everywhere := newProbe("fam", "", true)
	everywhere.rule.SeesExcluded = true
	// crossFile reports on an excluded path while judging a governed one.
	crossFile := &rules.Rule{ID: "x/cross", Severity: rules.Error, Doc: "Cross\nReports on another file.", Run: func(pass *rules.Pass) error {
		for _, ch := range pass.Unit.Changes {
			if ch.Path == ".small/plan.small.yml" {
				pass.Report("spec/small/v0.1/examples/.small/handoff.small.yml", 0, "missing")
				pass.Report(".small/handoff.small.yml", 0, "missing")
			}
		}
		return nil
	}}
	got, err := rules.Check([]changes.Unit{rulestest.Staged(before, after)}, rules.Options{Rules: []*rules.Rule{protocol.rule, everywhere.rule, crossFile}, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	wantSeen := []string{".small/plan.small.yml", "spec/small/v0.1/examples-other/.small/plan.small.yml", "spec/small/v1.0.0/examples/.small/intent.small.yml"}
	if !slices.Equal(protocol.paths, wantSeen) {
		t.Errorf("a protocol rule was handed %q, want %q", protocol.paths, wantSeen)
	}
	if len(everywhere.paths) != len(after) {
		t.Errorf("a rule that sees excluded paths was handed %q", everywhere.paths)
	}
	var excludedFindings []string
	for _, f := range got {
		if cfg.Excluded(f.Path) {
			excludedFindings = append(excludedFindings, f.Rule)
		}
	}
	slices.Sort(excludedFindings)
	if want := []string{"fam/a", "fam/a", "fam/b", "fam/b"}; !slices.Equal(excludedFindings, want) {
		t.Errorf("findings on excluded paths: %q, want only the family that sees them: %q\n%s", excludedFindings, want, summary(got))
	}
	if !strings.Contains(summary(got), "x/cross:error:.small/handoff.small.yml") {
		t.Errorf("the governed cross-file finding is missing: %s", summary(got))
	}
}

// TestReportsTellsARuleWhetherWhatItLeavesRuns: a rule learns whether the
// rules it declares in Leaves run, as the configuration leaves them; a
// rule it does not declare never counts as running.
func TestReportsTellsARuleWhetherWhatItLeavesRuns(t *testing.T) {
	y := newProbe("x/y", "", false).rule
	opt := newProbe("x/opt", "", false).rule
	opt.OffByDefault = true
	undeclared := newProbe("x/undeclared", "", false).rule
	var seen map[string]bool
	asker := &rules.Rule{ID: "x/ask", Severity: rules.Error, Doc: "Ask\nAsks.", Leaves: []*rules.Rule{y, opt}, Run: func(pass *rules.Pass) error {
		seen = map[string]bool{}
		for _, r := range []*rules.Rule{y, opt, undeclared} {
			seen[r.ID] = pass.Reports(r)
		}
		return nil
	}}
	all := []*rules.Rule{asker, y, opt, undeclared}
	for _, tc := range []struct {
		yml  string
		want map[string]bool
	}{
		{"", map[string]bool{"x/y": true, "x/opt": false, "x/undeclared": false}},
		{"rules:\n  x/y: off\n  x/opt: warning\n", map[string]bool{"x/y": false, "x/opt": true, "x/undeclared": false}},
	} {
		if _, err := rules.Check([]changes.Unit{oneChange()}, rules.Options{Rules: all, Config: load(t, tc.yml)}); err != nil {
			t.Fatal(err)
		}
		for id, want := range tc.want {
			if seen[id] != want {
				t.Errorf("%q: Reports(%q) = %v, want %v", tc.yml, id, seen[id], want)
			}
		}
	}
}
