package config

import (
	"strings"
	"testing"
)

func TestAgentPusherEntries(t *testing.T) {
	cfg, err := Load([]byte("attribution:\n  agents:\n    - pusher: claude-bot\n    - email: \"*@bots.example\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []Identity{{Pusher: "claude-bot"}, {Email: "*@bots.example"}}; len(cfg.Attribution.Agents) != 2 || cfg.Attribution.Agents[0] != want[0] || cfg.Attribution.Agents[1] != want[1] {
		t.Errorf("agents %+v", cfg.Attribution.Agents)
	}
	for text, want := range map[string]string{
		"attribution:\n  agents:\n    - pusher: claude-bot\n      email: bot@example.com\n": "line 3: attribution.agents[0].pusher names a server account",
		"attribution:\n  agents:\n    - pusher: \"\"\n":                                     "line 3: attribution.agents[0].pusher must be a non-empty glob",
		"attribution:\n  agents:\n    - pushr: claude-bot\n":                                `unknown key "pushr"`,
	} {
		if _, err := Load([]byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", text, err, want)
		}
	}
}

func TestPushProtect(t *testing.T) {
	cfg, err := Load([]byte("push:\n  protect: [main, \"release/*\"]\n"))
	if err != nil || cfg.Push.ReplaceRefs != "refuse" {
		t.Fatalf("%+v, %v", cfg, err)
	}
	if cfg, err := Load([]byte("push:\n  replace-refs: allow\n")); err != nil || cfg.Push.ReplaceRefs != "allow" {
		t.Fatalf("push.replace-refs: allow: %+v, %v", cfg, err)
	}
	for ref, want := range map[string]bool{
		"refs/heads/main": true, "refs/heads/release/1.0": true, "refs/heads/topic": false,
		"refs/tags/main": false, "refs/heads/mainline": false,
	} {
		if got := cfg.Push.Protects(ref); got != want {
			t.Errorf("%s: protected %v, want %v", ref, got, want)
		}
	}
	for text, want := range map[string]string{
		"push:\n  protect: main\n":                  "line 2: push.protect must be a list",
		"push:\n  protect: [refs/heads/main]\n":     "line 2: push.protect[0] must be a branch name",
		"push:\n  protekt: [main]\n":                `unknown key "protekt" in push`,
		"push:\n  protect: [main]\nunknown: true\n": `unknown key "unknown"`,
		"push:\n  replace-refs: yes\n":              "line 2: push.replace-refs must be one of refuse, allow",
	} {
		if _, err := Load([]byte(text)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", text, err, want)
		}
	}
}
