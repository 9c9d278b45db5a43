package config

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
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
signatures:
  allowed-signers: .github/allowed_signers
  openpgp-keys: .github/signing-keys.asc
  require: human-owned
`))
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Attribution: Attribution{Agents: []Identity{{Email: "*@bots.corp.example"}, {Email: "*@example.com", Name: "*[bot]"}}, Trailers: []string{"X-Agent"}, Unknown: "error"},
		Secrets:     Secrets{Scope: "staged"},
		SMP:         SMP{SyncReplace: "warning"},
		Signatures:  Signatures{AllowedSigners: ".github/allowed_signers", OpenPGPKeys: ".github/signing-keys.asc", Require: "human-owned"},
		Ledger:      Default().Ledger,
		Push:        Default().Push,
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

// loadErr loads input and returns its *Error, failing when there is none.
func loadErr(t *testing.T, input string) *Error {
	t.Helper()
	cfg, err := Load([]byte(input))
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("%q: got %+v, %v; want a *config.Error", input, cfg, err)
	}
	if cfg != nil {
		t.Errorf("%q: a config came back with the error", input)
	}
	if ce.Msg == "" || !strings.HasPrefix(ce.Error(), fmt.Sprintf("line %d: ", ce.Line)) {
		t.Errorf("%q: error text %q", input, ce.Error())
	}
	return ce
}

func TestLoadDefaults(t *testing.T) {
	for _, input := range []string{
		"",
		"\n\n",
		"# a comment\n# another\n",
		"---\n",
		"---\n# only a comment\n",
		"\xef\xbb\xbf# with a BOM\n",
		"attribution:\nsecrets:\nsmp:\n",
		"attribution: ~\nsecrets: null\n",
		"attribution: {}\nsecrets: {}\nsmp: {}\n",
		"attribution:\n  agents:\n  trailers:\n",
		"attribution:\n  agents: []\n  trailers: []\n",
		"signatures:\n",
		"signatures: {}\n",
		"signatures:\n  require: off\n",
	} {
		cfg, err := Load([]byte(input))
		if err != nil {
			t.Errorf("%q: %v", input, err)
			continue
		}
		if !reflect.DeepEqual(cfg, Default()) {
			t.Errorf("%q: %+v, want the defaults", input, cfg)
		}
	}
	d := Default()
	if d.Attribution.Unknown != "human" || d.Secrets.Scope != "governed" || d.SMP.SyncReplace != "error" || d.Attribution.Agents != nil || d.Attribution.Trailers != nil ||
		d.Signatures != (Signatures{Require: "off"}) {
		t.Errorf("defaults %+v", d)
	}
	// Default returns a fresh value each time.
	d.Attribution.Unknown = "agent"
	if Default().Attribution.Unknown != "human" {
		t.Error("Default shares its value")
	}
}

func TestLoadEachKey(t *testing.T) {
	cases := []struct {
		input string
		edit  func(c *Config)
	}{
		{"attribution:\n  unknown: human\n", func(c *Config) {}},
		{"attribution:\n  unknown: agent\n", func(c *Config) { c.Attribution.Unknown = "agent" }},
		{"attribution:\n  unknown: error\n", func(c *Config) { c.Attribution.Unknown = "error" }},
		{"attribution:\n  unknown: 'error'\n", func(c *Config) { c.Attribution.Unknown = "error" }},
		{"attribution:\n  trailers: [X-Agent, Made-By]\n", func(c *Config) { c.Attribution.Trailers = []string{"X-Agent", "Made-By"} }},
		{"attribution:\n  trailers:\n    - X-Agent\n", func(c *Config) { c.Attribution.Trailers = []string{"X-Agent"} }},
		{"attribution:\n  agents:\n    - email: \"*@bots.corp.example\"\n", func(c *Config) {
			c.Attribution.Agents = []Identity{{Email: "*@bots.corp.example"}}
		}},
		{"attribution:\n  agents:\n    - name: \"*[bot]\"\n", func(c *Config) { c.Attribution.Agents = []Identity{{Name: "*[bot]"}} }},
		{"attribution:\n  agents:\n    - {name: Robo, email: robo@example.com}\n    - email: b@example.com\n", func(c *Config) {
			c.Attribution.Agents = []Identity{{Name: "Robo", Email: "robo@example.com"}, {Email: "b@example.com"}}
		}},
		{"secrets:\n  scope: governed\n", func(c *Config) {}},
		{"secrets:\n  scope: staged\n", func(c *Config) { c.Secrets.Scope = "staged" }},
		{"smp:\n  sync-replace: error\n", func(c *Config) {}},
		{"smp:\n  sync-replace: warning\n", func(c *Config) { c.SMP.SyncReplace = "warning" }},
		{"smp: {sync-replace: warning}\n", func(c *Config) { c.SMP.SyncReplace = "warning" }},
		{"smp:\r\n  sync-replace: warning\r\n", func(c *Config) { c.SMP.SyncReplace = "warning" }},
	}
	for _, tc := range cases {
		want := Default()
		tc.edit(want)
		cfg, err := Load([]byte(tc.input))
		if err != nil {
			t.Errorf("%q: %v", tc.input, err)
			continue
		}
		if !reflect.DeepEqual(cfg, want) {
			t.Errorf("%q:\ngot  %+v\nwant %+v", tc.input, cfg, want)
		}
	}
}

func TestLoadUnknownKeys(t *testing.T) {
	cases := []struct {
		input string
		line  int
		key   string
	}{
		{"smp:\n  sync-replace: warning\nversion: 1\n", 3, "version"},
		{"# comment\n\nAttribution: {}\n", 3, "Attribution"},
		{"attribution:\n  unknown: human\n  agent: []\n", 3, "agent"},
		{"attribution:\n  agents:\n    - email: a@b.c\n    - email: x@y.z\n      nmae: x\n", 5, "nmae"},
		{"secrets:\n  scope: staged\n  rules: [x]\n", 3, "rules"},
		{"smp:\n\n  sync_replace: warning\n", 3, "sync_replace"},
	}
	for _, tc := range cases {
		ce := loadErr(t, tc.input)
		if ce.Line != tc.line || !strings.Contains(ce.Msg, fmt.Sprintf("%q", tc.key)) {
			t.Errorf("%q: %v, want line %d naming %q", tc.input, ce, tc.line, tc.key)
		}
	}
}

func TestLoadBadValues(t *testing.T) {
	cases := []struct {
		name, input string
		line        int
		mention     string
	}{
		{"unknown enum", "\nattribution:\n  unknown: maybe\n", 3, "attribution.unknown"},
		{"unknown enum is case-sensitive", "attribution:\n  unknown: Human\n", 2, "attribution.unknown"},
		{"unknown not a string", "attribution:\n  unknown: 1\n", 2, "attribution.unknown"},
		{"unknown a bool", "attribution:\n  unknown: true\n", 2, "attribution.unknown"},
		{"unknown a list", "attribution:\n  unknown: [human]\n", 2, "attribution.unknown"},
		{"scope enum", "secrets:\n  scope: all\n", 2, "secrets.scope"},
		{"sync-replace enum", "smp:\n  sync-replace: off\n", 2, "smp.sync-replace"},
		{"sync-replace null", "smp:\n  sync-replace:\n", 2, "smp.sync-replace"},
		{"top level a list", "- attribution\n", 1, "mapping"},
		{"top level a scalar", "hello\n", 1, "mapping"},
		{"section a scalar", "attribution: human\n", 1, "attribution"},
		{"section a list", "\nsmp:\n  - sync-replace\n", 2, "smp"},
		{"trailers a string", "attribution:\n  trailers: X-Agent\n", 2, "attribution.trailers"},
		{"trailer with a space", "attribution:\n  trailers:\n    - X-Agent\n    - \"X Agent\"\n", 4, "attribution.trailers[1]"},
		{"trailer with a colon", "attribution:\n  trailers: [\"X-Agent:\"]\n", 2, "attribution.trailers[0]"},
		{"trailer a number", "attribution:\n  trailers:\n    - 12\n", 3, "attribution.trailers[0]"},
		{"trailer empty", "attribution:\n  trailers:\n    - ''\n", 3, "attribution.trailers[0]"},
		{"trailer with an underscore", "attribution:\n  trailers:\n    - X_Agent\n", 3, "attribution.trailers[0]"},
		{"trailer not ASCII", "attribution:\n  trailers: [Agént]\n", 2, "attribution.trailers[0]"},
		{"top level a list after a comment", "# settings\n- attribution\n", 2, "mapping"},
		{"agent name blank", "attribution:\n  agents:\n    - name: '  '\n", 3, "attribution.agents[0].name"},
		{"agents a mapping", "attribution:\n  agents:\n    email: x\n", 2, "attribution.agents"},
		{"agent a string", "attribution:\n  agents:\n    - a@b.c\n", 3, "mapping"},
		{"agent with neither", "attribution:\n  agents:\n    - {}\n", 3, "email or name"},
		{"agent email empty", "attribution:\n  agents:\n    - email: ''\n", 3, "email"},
		{"agent name a number", "attribution:\n  agents:\n    - name: 7\n", 3, "name"},
		{"agent email a list", "attribution:\n  agents:\n    - name: x\n      email: [a]\n", 4, "email"},
		{"not YAML", "attribution:\n  unknown: [\n", 2, "YAML"},
		{"tab indentation", "attribution:\n\tunknown: agent\n", 2, ""},
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

func TestLoadDuplicateKeys(t *testing.T) {
	cases := map[string]int{
		"secrets:\n  scope: staged\nsecrets:\n  scope: governed\n":          3,
		"attribution:\n  unknown: agent\n  unknown: human\n":                3,
		"smp:\n  sync-replace: warning\n\n  sync-replace: error\n":          4,
		"attribution:\n  agents:\n    - email: a@b.c\n      email: d@e.f\n": 4,
	}
	for input, line := range cases {
		ce := loadErr(t, input)
		if ce.Line != line || !strings.Contains(ce.Msg, "duplicate") {
			t.Errorf("%q: %v, want a duplicate key at line %d", input, ce, line)
		}
	}
}

// TestLoadErrorLineIsStable loads an identity with two bad fields many
// times: the error must name the same line every time.
func TestLoadErrorLineIsStable(t *testing.T) {
	input := "attribution:\n  agents:\n    - email: ''\n      name: ''\n"
	first := loadErr(t, input)
	for i := 0; i < 200; i++ {
		if ce := loadErr(t, input); ce.Line != first.Line || ce.Msg != first.Msg {
			t.Fatalf("config.Load reports a different error for the same input: %v, then %v", first, ce)
		}
	}
}

func TestMatchMore(t *testing.T) {
	cases := []struct {
		pattern, s string
		want       bool
	}{
		{"", "", true},
		{"", "a", false},
		{"?", "", false},
		{"?", "é", true},
		{"??", "é", false},
		{"*", "anything at all", true},
		{"**", "x", true},
		{"a*", "a", true},
		{"*a", "ba", true},
		{"*a", "ab", false},
		{"*[bot]", "dependabot[bot]", true},
		{"*[bot]", "dependabot[BOT]", false},
		{"*[bot]", "b", false},
		{"[bot]", "b", false},
		{"[a-z]", "b", false},
		{"[a-z]", "[a-z]", true},
		{"*@bots.corp.example", "@bots.corp.example", true},
		{"*@bots.corp.example", "ci@bots-corp.example", false},
		{"*.example", "a.example", true},
		{"*+copilot@users.noreply.github.com", "198982749+copilot@users.noreply.github.com", true},
		{"*+copilot@users.noreply.github.com", "copilot@users.noreply.github.com", false},
		{"a*b*c", "abc", true},
		{"a*b*c", "acb", false},
		{"a*a*a", "aaaa", true},
		{"a*a*a", "aa", false},
		{"*x*", "x", true},
		{`a\*`, `a\bc`, true},
		{"exact", "exact", true},
		{"exact", "Exact", false},
	}
	for _, tc := range cases {
		if got := Match(tc.pattern, tc.s); got != tc.want {
			t.Errorf("Match(%q, %q) = %v, want %v", tc.pattern, tc.s, got, tc.want)
		}
	}
}

func TestLoadLedger(t *testing.T) {
	cfg, err := Load([]byte(`ledger:
  clock-skew: 90s
  backfill: 30d
  identities:
    - did: "did:key:z6MkAgentOne"
      email: one@agents.example
    - did: "did:key:z6MkAgentOne"
      email: one@other.example
`))
	if err != nil {
		t.Fatal(err)
	}
	want := Ledger{ClockSkew: 90 * time.Second, Backfill: 30 * 24 * time.Hour, Identities: []DIDIdentity{
		{DID: "did:key:z6MkAgentOne", Email: "one@agents.example"}, {DID: "did:key:z6MkAgentOne", Email: "one@other.example"},
	}}
	if !reflect.DeepEqual(cfg.Ledger, want) {
		t.Errorf("got %+v\nwant %+v", cfg.Ledger, want)
	}
	if got := cfg.Ledger.Emails("did:key:z6MkAgentOne"); len(got) != 2 || cfg.Ledger.Emails("did:key:other") != nil {
		t.Errorf("Emails: %v", got)
	}
	if d := Default().Ledger; d.ClockSkew != 5*time.Minute || d.Backfill != 7*24*time.Hour || FormatDuration(d.Backfill) != "7d" || FormatDuration(d.ClockSkew) != "5m" {
		t.Errorf("defaults %+v", d)
	}
	for input, line := range map[string]int{
		"ledger:\n  clock-skew: 5\n":                                         2,
		"ledger:\n  clock-skew: 5 m\n":                                       2,
		"ledger:\n  backfill: -7d\n":                                         2,
		"ledger:\n  backfill: 7w\n":                                          2,
		"ledger:\n  backfill: 99999999999d\n":                                2,
		"ledger:\n  skew: 5m\n":                                              2,
		"ledger:\n  identities: {did: x}\n":                                  2,
		"ledger:\n  identities:\n    - did: anonymous\n      email: a@b\n":   3,
		"ledger:\n  identities:\n    - did: did:key:z\n":                     3,
		"ledger:\n  identities:\n    - did: did:key:z\n      email: <a@b>\n": 4,
		"ledger:\n  identities:\n    - did: did:key:z\n      mail: a@b\n":    4,
	} {
		_, err := Load([]byte(input))
		var ce *Error
		if !errors.As(err, &ce) || ce.Line != line {
			t.Errorf("%q: %v, want an error at line %d", input, err, line)
		}
	}
}
