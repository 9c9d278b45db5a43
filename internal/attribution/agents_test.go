package attribution

import (
	"os"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
)

// exampleAddress is an address a known agent's pattern matches: the open
// GitHub App id filled in.
func exampleAddress(pattern string) string { return strings.ReplaceAll(pattern, "*", "198982749") }

// TestEveryKnownAgentIsEvidence: every known agent identity marks a commit
// as an agent's as its author, its committer or a co-author, and every
// agent trailer does whatever its value; one subtest per marker.
func TestEveryKnownAgentIsEvidence(t *testing.T) {
	human := changes.Identity{Name: "Test Human", Email: "human@example.com"}
	for _, k := range knownAgents() {
		id := changes.Identity{Name: k.tool, Email: exampleAddress(k.email)}
		for role, in := range map[string]Input{
			"author":    {Message: "Subject\n", HasMessage: true, Author: id, Committer: human},
			"committer": {Message: "Subject\n", HasMessage: true, Author: human, Committer: id},
			"co-author": {Message: "Subject\n\nCo-authored-by: " + k.tool + " <" + strings.ToUpper(id.Email) + ">\n", HasMessage: true, Author: human, Committer: human},
		} {
			t.Run(k.email+" as "+role, func(t *testing.T) {
				v, err := Decide(in, config.Attribution{})
				if err != nil || v.Actor != Agent {
					t.Fatalf("Decide = %+v, %v; want an agent", v, err)
				}
			})
		}
	}
	for _, key := range agentTrailers() {
		t.Run(key, func(t *testing.T) {
			in := Input{Message: "Subject\n\nBody.\n\n" + strings.ToLower(key) + ": true\n", HasMessage: true, Author: human, Committer: human}
			if v, err := Decide(in, config.Attribution{}); err != nil || v.Actor != Agent || !strings.Contains(v.Evidence, "trailer") {
				t.Fatalf("Decide = %+v, %v; want an agent by the trailer", v, err)
			}
		})
	}
}

// TestLookalikesAreHuman: addresses near the agents' that people commit
// with are no evidence.
func TestLookalikesAreHuman(t *testing.T) {
	for _, email := range []string{"noreply@github.com", "someone@openai.com", "jane@anthropic.com", "123+octocat@users.noreply.github.com", "copilot@example.com", "noreply@openai.com.evil.example"} {
		in := Input{Message: "Subject\n\nCo-authored-by: X <" + email + ">\n", HasMessage: true, Author: changes.Identity{Name: "X", Email: email}}
		if v, err := Decide(in, config.Attribution{}); err != nil || v.Actor != Human {
			t.Errorf("%s: Decide = %+v, %v; want a human", email, v, err)
		}
	}
}

// TestAgentTableIsDocumented: docs/attribution.md lists every known agent
// address and agent trailer, with its source.
func TestAgentTableIsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/attribution.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range knownAgents() {
		if !strings.Contains(string(doc), "`"+k.email+"`") {
			t.Errorf("docs/attribution.md does not list %s (%s)", k.email, k.tool)
		}
	}
	for _, key := range agentTrailers() {
		if !strings.Contains(string(doc), "`"+key+":") {
			t.Errorf("docs/attribution.md does not list the trailer %s", key)
		}
	}
}
