package attribution

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/signature"
)

// TestAgentPusherDecides: a commit an agent account pushed is an agent's,
// whatever its message claims; another pusher, or a pusher entry on a
// client (no pusher), changes nothing; a pusher entry never matches
// authors or committers.
func TestAgentPusherDecides(t *testing.T) {
	cfg := config.Default().Attribution
	cfg.Agents = []config.Identity{{Pusher: "claude-*"}}
	jane := changes.Identity{Name: "Jane Doe", Email: "jane@example.com"}
	claim := Input{Message: "Edit the intent\n\nSmall-Actor: human\n", HasMessage: true, Author: jane, Committer: jane}

	bot := claim
	bot.Pusher, bot.PusherSource = "claude-bot", "GL_USERNAME"
	v, err := Decide(bot, cfg)
	if err != nil || v.Actor != Agent || !strings.Contains(v.Evidence, "pushed by the agent account claude-bot (GL_USERNAME)") || v.Contradicted == "" || v.Pusher != "claude-bot (GL_USERNAME)" {
		t.Errorf("an agent account's push: %+v, %v", v, err)
	}
	if !strings.Contains(v.AsHuman(), "a human's account pushes it") {
		t.Errorf("the advice for an agent account's push: %s", v.AsHuman())
	}
	for _, account := range []string{"Claude-Bot", "CLAUDE-BOT"} {
		spelled := bot
		spelled.Pusher = account
		if v, err := Decide(spelled, config.Attribution{Agents: []config.Identity{{Pusher: "Claude-*"}}}); err != nil || v.Actor != Agent || !strings.Contains(v.Evidence, account) {
			t.Errorf("the account spelled %s: %+v, %v", account, v, err)
		}
	}
	for name, in := range map[string]Input{
		"a human account": func() Input { i := claim; i.Pusher, i.PusherSource = "jane", "GL_USERNAME"; return i }(),
		"no pusher":       claim,
	} {
		if v, err := Decide(in, cfg); err != nil || v.Actor != Human {
			t.Errorf("%s: %+v, %v", name, v, err)
		}
	}
	signed := bot
	signed.Signature = &signature.Status{Format: signature.FormatSSH, Verdict: signature.Valid, Signer: "jane@example.com"}
	if v, err := Decide(signed, cfg); err != nil || v.Actor != Human || !strings.Contains(v.Disputed, "pushed by the agent account claude-bot") {
		t.Errorf("a signed commit an agent account pushes: the push must stay on record as disputed: %+v, %v", v, err)
	}
	plain := Input{Message: "Edit\n", HasMessage: true, Author: changes.Identity{Name: "claude-bot", Email: "claude-bot@example.com"}, Committer: jane}
	if v, err := Decide(plain, cfg); err != nil || v.Actor != Human {
		t.Errorf("a pusher entry matched an author: %+v, %v", v, err)
	}
}
