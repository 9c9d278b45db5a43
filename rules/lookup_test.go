package rules_test

import (
	"testing"

	"github.com/small-hook/small-hook/rules"
)

func TestLookupAndSuggest(t *testing.T) {
	all := []*rules.Rule{{ID: "small/append-only"}, {ID: "small/ownership"}, {ID: "secrets"}, {ID: "secrets/credential-key"}, {ID: "smp/version"}}
	for id, want := range map[string]string{
		"small/append-only":      "small/append-only",
		"secrets/github-pat":     "secrets",
		"secrets/credential-key": "secrets/credential-key",
		"small/apend-only":       "",
		"small":                  "",
	} {
		got := ""
		if r := rules.Lookup(all, id); r != nil {
			got = r.ID
		}
		if got != want {
			t.Errorf("Lookup(%q) = %q, want %q", id, got, want)
		}
	}
	for id, want := range map[string]string{
		"small/apend-only":  "small/append-only",
		"Small/Append-Only": "small/append-only",
		"append-only":       "small/append-only",
		"small/ownershp":    "small/ownership",
		"smp/versoin":       "smp/version",
		"secret":            "secrets",
		"small/timestamp":   "",
		"nothing-like-it":   "",
	} {
		if got := rules.Suggest(all, id); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", id, got, want)
		}
	}
}
