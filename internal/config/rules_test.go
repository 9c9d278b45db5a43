package config

import (
	"reflect"
	"strings"
	"testing"
)

func TestConfigRules(t *testing.T) {
	cfg, err := Load([]byte("# tuning\nrules:\n  small/human-edit: warning\n  smp/merge: error\n  secrets/generic-api-key: 'off'\n  secrets: warning\n  path/folded: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]RuleSetting{
		"small/human-edit":        {SeverityWarning, 3},
		"smp/merge":               {SeverityError, 4},
		"secrets/generic-api-key": {SeverityOff, 5},
		"secrets":                 {SeverityWarning, 6},
		"path/folded":             {SeverityOff, 7},
	}
	if !reflect.DeepEqual(cfg.Rules, want) {
		t.Errorf("got %+v\nwant %+v", cfg.Rules, want)
	}
	for _, input := range []string{"rules:\n", "rules: ~\n", "rules: {}\n"} {
		cfg, err := Load([]byte(input))
		if err != nil || len(cfg.Rules) != 0 {
			t.Errorf("%q: %+v %v", input, cfg, err)
		}
	}
}

func TestConfigRulesErrors(t *testing.T) {
	cases := []struct {
		name, input string
		line        int
		mention     string
	}{
		{"a list", "rules:\n  - smp/merge\n", 1, "mapping of rule ID"},
		{"a scalar", "rules: strict\n", 1, "mapping of rule ID"},
		{"unknown severity", "rules:\n  smp/merge: fatal\n", 2, "rules.smp/merge must be off, warning or error"},
		{"severity in capitals", "rules:\n  smp/merge: Error\n", 2, "off, warning or error"},
		{"a boolean", "rules:\n  smp/merge: false\n", 2, "off, warning or error"},
		{"a null severity", "\nrules:\n  smp/merge:\n", 3, "off, warning or error"},
		{"a number", "rules:\n  smp/merge: 0\n", 2, "off, warning or error"},
		{"an ID with a space", "rules:\n  smp/ merge: off\n", 2, "is not a rule ID"},
		{"an ID with two slashes", "rules:\n  smp/merge/x: off\n", 2, "is not a rule ID"},
		{"an ID in capitals", "rules:\n  SMP/merge: off\n", 2, "is not a rule ID"},
		{"an empty name", "rules:\n  smp/: off\n", 2, "is not a rule ID"},
		{"an empty ID", "rules:\n  '': off\n", 2, "is not a rule ID"},
		{"a duplicate ID", "rules:\n  smp/merge: off\n  smp/merge: error\n", 3, "duplicate"},
		{"a glob", "rules:\n  'smp/*': off\n", 2, "is not a rule ID"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ce := loadErr(t, tc.input)
			if ce.Line != tc.line || !strings.Contains(ce.Msg, tc.mention) {
				t.Errorf("%q: %v, want line %d mentioning %q", tc.input, ce, tc.line, tc.mention)
			}
		})
	}
}
