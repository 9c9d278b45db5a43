package secrets

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/rules"
)

// TestAllowMarkersCountWhenAHumanWroteThem marks secrets gitleaks:allow
// in every view the secret rule scans (a long line, a decoded YAML value
// whose marker is on its key's line, Markdown whose marker is an HTML
// comment, a base64 value): the marker suppresses the finding when a
// human's commit wrote it and in a tree (--all); an agent's commit, or
// one whose author is unknown, gets the finding, which says why the
// marker does not count.
func TestAllowMarkersCountWhenAHumanWroteThem(t *testing.T) {
	ws := workspace(t)
	long := strings.Repeat("lorem ipsum ", 300)
	cases := []struct{ name, path, added string }{
		{"a long line", plan, "    - id: task-4\n      title: token " + fakeGitHub + " " + long + " # gitleaks:allow\n"},
		{"a YAML block scalar", plan, "    - id: task-4\n      title: rotate\n      db_password: >- # gitleaks:allow\n        " + fakePass + "\n"},
		{"a Markdown comment", artifact, "\ndeployed with " + fakeGitHub[:10] + "**" + fakeGitHub[10:] + "** <!-- gitleaks:allow -->\n"},
		{"an escaped token", artifact, "\ndeployed with &#103;" + fakeGitHub[1:] + " <!-- gitleaks:allow -->\n"},
	}
	human := attribution.Verdict{Actor: attribution.Human, Evidence: "no agent marker"}
	agent := attribution.Verdict{Actor: attribution.Agent, Evidence: "trailer Co-Authored-By: Claude <noreply@anthropic.com>"}
	unknown := attribution.Verdict{Actor: attribution.Unknown, Evidence: "no agent or human marker"}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			after := with(ws, tc.path, ws[tc.path]+tc.added)
			unmarked := with(ws, tc.path, ws[tc.path]+strings.ReplaceAll(strings.ReplaceAll(tc.added, " <!-- gitleaks:allow -->", ""), " # gitleaks:allow", ""))
			if found, err := check(t, env{actor: &agent}, rulestest.Staged(ws, unmarked)); err != nil || !hasSecret(found) {
				t.Fatalf("without the marker: %q (%v): the case proves nothing", summary(found), err)
			}
			for _, c := range []struct {
				actor    attribution.Verdict
				reported bool
			}{{human, false}, {agent, true}, {unknown, true}} {
				found, err := check(t, env{actor: &c.actor}, rulestest.Staged(ws, after))
				if err != nil {
					t.Fatal(err)
				}
				if hasSecret(found) != c.reported {
					t.Errorf("%s: got %q", c.actor.Actor, summary(found))
				}
				for _, f := range found {
					if strings.HasPrefix(f.Rule, "secrets/") && f.Rule != credentialKeyID && !strings.Contains(f.Message, "does not count: this commit wrote it") {
						t.Errorf("%s: the message does not say why the marker does not count: %s", c.actor.Actor, f.Message)
					}
				}
			}
			if found, err := check(t, env{actor: &agent}, rulestest.Tree(after)); err != nil || hasSecret(found) {
				t.Errorf("--all: got %q (%v)", summary(found), err)
			}
		})
	}
}

// hasSecret reports whether gitleaks' rules found something.
func hasSecret(found []rules.Finding) bool {
	for _, f := range found {
		if strings.HasPrefix(f.Rule, "secrets/") && f.Rule != credentialKeyID {
			return true
		}
	}
	return false
}
