package config

import (
	"errors"
	"reflect"
	"testing"
)

func TestLoad(t *testing.T) {
	cfg, err := Load([]byte("# nothing set\n"))
	if err != nil || !reflect.DeepEqual(cfg, Default()) {
		t.Fatalf("comment-only file: %+v %v", cfg, err)
	}
	cfg, err = Load([]byte(`attribution:
  agents:
    - email: "*@bots.corp.example"
    - name: "*[bot]"
      email: "*@example.com"
  trailers: [X-Agent]
  unknown: error
secrets:
  scope: staged
smp:
  sync-replace: warning
`))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Attribution: Attribution{Agents: []Identity{{Email: "*@bots.corp.example"}, {Email: "*@example.com", Name: "*[bot]"}}, Trailers: []string{"X-Agent"}, Unknown: "error"},
		Secrets:     Secrets{Scope: "staged"},
		SMP:         SMP{SyncReplace: "warning"},
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("got %+v\nwant %+v", cfg, want)
	}
}

func TestLoadErrors(t *testing.T) {
	cases := map[string]int{
		"attribution:\n  agentz: []\n":                  2,
		"atribution: {}\n":                              1,
		"attribution:\n  unknown: maybe\n":              2,
		"attribution:\n  agents:\n    - mail: x\n":      3,
		"attribution:\n  agents:\n    - {}\n":           3,
		"attribution:\n  trailers: [\"Bad Key\"]\n":     2,
		"secrets:\n  scope: everything\n":               2,
		"smp:\n  sync-replace: true\n":                  2,
		"secrets: [1]\n":                                1,
		"a: 1\na: 2\n":                                  2,
		"attribution:\n  unknown: [\n":                  2,
		"- not a mapping\n":                             1,
		"smp:\n  sync-replace: warning\nsmp:\n  x: 1\n": 3,
	}
	for input, line := range cases {
		_, err := Load([]byte(input))
		var ce *Error
		if !errors.As(err, &ce) || ce.Line != line {
			t.Errorf("%q: %v, want an error at line %d", input, err, line)
		}
	}
}

func TestMatch(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"*[bot]", "renovate[bot]", true},
		{"*[bot]", "robot", false},
		{"*@bots.corp.example", "ci@bots.corp.example", true},
		{"*@bots.corp.example", "ci@bots.corp.example.org", false},
		{"a?c", "abc", true},
		{"*", "", true},
		{"a*b*c", "axxbyyc", true},
		{"a*b*c", "axxbyy", false},
	}
	for _, tc := range cases {
		if got := Match(tc.pattern, tc.s); got != tc.want {
			t.Errorf("Match(%q, %q) = %v", tc.pattern, tc.s, got)
		}
	}
}
