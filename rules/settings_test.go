package rules_test

import (
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

// ledgerRules are rules another driver than Checker runs.
func ledgerRules() []*rules.Rule {
	return []*rules.Rule{
		{ID: "ledger/one", Severity: rules.Error, Ledger: true, Doc: "One\nA ledger rule."},
		{ID: "ledger/two", Severity: rules.Warning, Ledger: true, OffByDefault: true, Doc: "Two\nOff by default."},
	}
}

// TestSettingsApplyTheConfigurationAsCheckerDoes gives the findings of
// ledger rules the severities, switches and exclusions the configuration
// sets, as Checker does for its rules.
func TestSettingsApplyTheConfigurationAsCheckerDoes(t *testing.T) {
	f := func(id, path string) rules.Finding {
		sev := rules.Error
		if id == "ledger/two" {
			sev = rules.Warning
		}
		return rules.Finding{Rule: id, Severity: sev, Path: path, Line: 1, Message: "m"}
	}
	cases := []struct {
		name, yml string
		in        rules.Finding
		want      rules.Severity // "" when the finding is dropped
	}{
		{"default", "", f("ledger/one", "a.yml"), rules.Error},
		{"lowered", "rules:\n  ledger/one: warning\n", f("ledger/one", "a.yml"), rules.Warning},
		{"turned off", "rules:\n  ledger/one: off\n", f("ledger/one", "a.yml"), ""},
		{"off by default", "", f("ledger/two", "a.yml"), ""},
		{"turned on", "rules:\n  ledger/two: error\n", f("ledger/two", "a.yml"), rules.Error},
		{"excluded path", "exclude: [\"examples/**\"]\n", f("ledger/one", "examples/x/.small/progress.small.yml"), ""},
	}
	for _, c := range cases {
		s, err := rules.NewSettings(load(t, c.yml), ledgerRules())
		if err != nil {
			t.Fatal(err)
		}
		got, keep := s.Apply(c.in)
		switch {
		case c.want == "" && keep:
			t.Errorf("%s: kept %+v", c.name, got)
		case c.want != "" && (!keep || got.Severity != c.want):
			t.Errorf("%s: %+v (kept %v), want severity %s", c.name, got, keep, c.want)
		}
	}
	if _, err := rules.NewSettings(load(t, "rules:\n  ledger/three: off\n"), ledgerRules()); err == nil {
		t.Error("a setting for a rule that does not exist was accepted")
	}
}

// TestCheckerNeverRunsLedgerRules: a ledger rule has no Run; Checker
// leaves it to its driver.
func TestCheckerNeverRunsLedgerRules(t *testing.T) {
	all := append(ledgerRules(), newProbe("probe/x", "", false).rule)
	u := oneChange()
	findings, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: all, Config: load(t, "rules:\n  ledger/two: error\n")})
	if err != nil || len(findings) != 1 || findings[0].Rule != "probe/x" {
		t.Errorf("findings %v, error %v", findings, err)
	}
}
