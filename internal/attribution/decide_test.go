package attribution

import (
	"reflect"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
)

func TestDecide(t *testing.T) {
	def := config.Default().Attribution
	extra := def
	extra.Agents = []config.Identity{{Email: "*@bots.corp.example"}, {Name: "*[bot]"}}
	extra.Trailers = []string{"X-Agent"}
	policy := func(p string) config.Attribution { a := def; a.Unknown = p; return a }

	jane := changes.Identity{Name: "Jane Doe", Email: "jane@example.com"}
	claude := "Co-Authored-By: Claude <noreply@anthropic.com>"
	msg := func(trailers ...string) string {
		if len(trailers) == 0 {
			return "Update the plan\n\nSome body text.\n"
		}
		return "Update the plan\n\nSome body text.\n\n" + strings.Join(trailers, "\n") + "\n"
	}

	cases := []struct {
		name     string
		in       Input
		cfg      config.Attribution
		actor    Actor
		pending  bool
		evidence string // a substring of the evidence
		agents   []string
	}{
		{
			name:  "Claude Code co-author",
			in:    Input{Message: msg(claude), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "trailer Co-Authored-By: Claude <noreply@anthropic.com>",
			agents: []string{"noreply@anthropic.com"},
		},
		{
			name:  "aider co-author",
			in:    Input{Message: msg("Co-authored-by: aider (anthropic/claude-sonnet-4) <aider@aider.chat>"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "trailer Co-authored-by: aider",
			agents: []string{"aider@aider.chat"},
		},
		{
			name:  "aider noreply co-author",
			in:    Input{Message: msg("Co-authored-by: aider (gpt-4o) <noreply@aider.chat>"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "noreply@aider.chat",
			agents: []string{"noreply@aider.chat"},
		},
		{
			name:  "author name ending (aider)",
			in:    Input{Message: msg(), HasMessage: true, Author: changes.Identity{Name: "Jane Doe (aider)", Email: "jane@example.com"}, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "author Jane Doe (aider) <jane@example.com>",
			agents: []string{"jane@example.com"},
		},
		{
			name:  "Copilot coding agent author",
			in:    Input{Message: msg(), HasMessage: true, Author: changes.Identity{Name: "Copilot", Email: "198982749+Copilot@users.noreply.github.com"}, Committer: changes.Identity{Name: "GitHub", Email: "noreply@github.com"}},
			cfg:   def,
			actor: Agent, evidence: "author Copilot <198982749+Copilot@users.noreply.github.com>",
			agents: []string{"198982749+Copilot@users.noreply.github.com"},
		},
		{
			name:  "Cursor agent author",
			in:    Input{Message: msg(), HasMessage: true, Author: changes.Identity{Name: "Cursor Agent", Email: "cursoragent@cursor.com"}, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "author Cursor Agent <cursoragent@cursor.com>",
			agents: []string{"cursoragent@cursor.com"},
		},
		{
			name:  "Cursor agent committer",
			in:    Input{Message: msg(), HasMessage: true, Author: jane, Committer: changes.Identity{Name: "Cursor Agent", Email: "cursoragent@cursor.com"}},
			cfg:   def,
			actor: Agent, evidence: "committer Cursor Agent <cursoragent@cursor.com>",
			agents: []string{"cursoragent@cursor.com"},
		},
		{
			name:  "Claude GitHub app co-author",
			in:    Input{Message: msg("Co-authored-by: claude[bot] <209825114+claude[bot]@users.noreply.github.com>"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "trailer Co-authored-by: claude[bot]",
			agents: []string{"209825114+claude[bot]@users.noreply.github.com"},
		},
		{
			name:  "Devin co-author",
			in:    Input{Message: msg("Co-Authored-By: Devin <158243242+devin-ai-integration[bot]@users.noreply.github.com>"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "trailer Co-Authored-By: Devin",
			agents: []string{"158243242+devin-ai-integration[bot]@users.noreply.github.com"},
		},
		{
			name:  "Jules author",
			in:    Input{Message: msg(), HasMessage: true, Author: changes.Identity{Name: "google-labs-jules[bot]", Email: "161369871+google-labs-jules[bot]@users.noreply.github.com"}, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "author google-labs-jules[bot]",
			agents: []string{"161369871+google-labs-jules[bot]@users.noreply.github.com"},
		},
		{
			name:  "Amp co-author",
			in:    Input{Message: msg("Amp-Thread-ID: https://ampcode.com/threads/T-1", "Co-authored-by: Amp <amp@ampcode.com>"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "trailer Co-authored-by: Amp <amp@ampcode.com>",
			agents: []string{"amp@ampcode.com"},
		},
		{
			name:  "a GitHub user whose login merely contains an agent's",
			in:    Input{Message: msg("Co-authored-by: Claude Fan <1+claude@users.noreply.github.com>"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Human, evidence: "no agent marker",
		},
		{
			name:  "the same agent named twice is listed once",
			in:    Input{Message: msg(claude, "Co-authored-by: Claude Opus <NoReply@Anthropic.com>"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "trailer Co-Authored-By: Claude <noreply@anthropic.com>",
			agents: []string{"noreply@anthropic.com"},
		},
		{
			name:  "a co-author trailer after a --- line",
			in:    Input{Message: "Update\n\nBody.\n---\n\n" + claude + "\n", HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "trailer Co-Authored-By: Claude",
			agents: []string{"noreply@anthropic.com"},
		},
		{
			name:  "Assisted-by",
			in:    Input{Message: msg("Assisted-by: Claude:claude-opus-4"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "trailer Assisted-by: Claude:claude-opus-4",
		},
		{
			name:  "Generated-by",
			in:    Input{Message: msg("Generated-by: some-tool 1.2"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "trailer Generated-by: some-tool 1.2",
		},
		{
			name:  "Assisted-by in the body is not a trailer",
			in:    Input{Message: "Update\n\nAssisted-by: nobody\n\nmore text\n", HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Human, evidence: "no agent marker",
		},
		{
			name:  "a human co-author",
			in:    Input{Message: msg("Co-authored-by: Bob <bob@example.com>"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Human, evidence: "no agent marker",
		},
		{
			name:  "configured e-mail glob",
			in:    Input{Message: msg(), HasMessage: true, Author: changes.Identity{Name: "CI", Email: "ci@bots.corp.example"}, Committer: jane},
			cfg:   extra,
			actor: Agent, evidence: "author CI <ci@bots.corp.example>",
			agents: []string{"ci@bots.corp.example"},
		},
		{
			name:  "configured e-mail glob, case-insensitive",
			in:    Input{Message: msg(), HasMessage: true, Author: changes.Identity{Name: "CI", Email: "CI@Bots.Corp.Example"}, Committer: jane},
			cfg:   extra,
			actor: Agent, evidence: "author CI",
			agents: []string{"CI@Bots.Corp.Example"},
		},
		{
			name:  "configured e-mail glob does not match a longer domain",
			in:    Input{Message: msg(), HasMessage: true, Author: changes.Identity{Name: "CI", Email: "ci@bots.corp.example.org"}, Committer: jane},
			cfg:   extra,
			actor: Human, evidence: "no agent marker",
		},
		{
			name:  "configured name glob with literal brackets",
			in:    Input{Message: msg(), HasMessage: true, Author: changes.Identity{Name: "renovate[bot]", Email: "29139614+renovate[bot]@users.noreply.github.com"}, Committer: jane},
			cfg:   extra,
			actor: Agent, evidence: "author renovate[bot]",
			agents: []string{"29139614+renovate[bot]@users.noreply.github.com"},
		},
		{
			name:  "brackets are not a character class",
			in:    Input{Message: msg(), HasMessage: true, Author: changes.Identity{Name: "robot", Email: "robot@example.com"}, Committer: jane},
			cfg:   extra,
			actor: Human, evidence: "no agent marker",
		},
		{
			name:  "configured co-author identity",
			in:    Input{Message: msg("Co-authored-by: Deploy Bot <deploy@bots.corp.example>"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   extra,
			actor: Agent, evidence: "trailer Co-authored-by: Deploy Bot <deploy@bots.corp.example>",
			agents: []string{"deploy@bots.corp.example"},
		},
		{
			name:  "configured trailer",
			in:    Input{Message: msg("X-Agent: build-bot"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   extra,
			actor: Agent, evidence: "trailer X-Agent: build-bot",
		},
		{
			name:  "configured trailer, other case",
			in:    Input{Message: msg("x-agent: build-bot"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   extra,
			actor: Agent, evidence: "trailer x-agent: build-bot",
		},
		{
			name:  "configured trailer is not known without configuration",
			in:    Input{Message: msg("X-Agent: build-bot"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Human, evidence: "no agent marker",
		},
		{
			name:  "Small-Actor: agent on a plain commit",
			in:    Input{Message: msg("small-actor: Agent"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "trailer small-actor: Agent",
		},
		{
			name:  "Small-Actor: human on a plain commit",
			in:    Input{Message: msg("Small-Actor: human"), HasMessage: true, Author: jane, Committer: jane, EnvActor: ""},
			cfg:   def,
			actor: Human, evidence: "trailer Small-Actor: human",
		},
		{
			name:  "SMALL_HOOK_ACTOR=agent",
			in:    Input{Message: msg(), HasMessage: true, Author: jane, Committer: jane, EnvActor: "agent"},
			cfg:   def,
			actor: Agent, evidence: "SMALL_HOOK_ACTOR=agent",
		},
		{
			name:  "SMALL_HOOK_ACTOR=human on a plain commit",
			in:    Input{Message: msg(), HasMessage: true, Author: jane, Committer: jane, EnvActor: "human"},
			cfg:   def,
			actor: Human, evidence: "SMALL_HOOK_ACTOR=human",
		},
		{
			name:  "SMALL_HOOK_ACTOR decides before the message exists",
			in:    Input{Author: jane, Committer: jane, EnvActor: "agent"},
			cfg:   def,
			actor: Agent, evidence: "SMALL_HOOK_ACTOR=agent",
		},
		{
			name:  "pending before the message exists",
			in:    Input{Author: jane, Committer: jane},
			cfg:   def,
			actor: Unknown, pending: true, evidence: "pre-commit",
		},
		{
			name:  "pending even with unknown: agent",
			in:    Input{Author: jane, Committer: jane},
			cfg:   policy("agent"),
			actor: Unknown, pending: true, evidence: "pre-commit",
		},
		{
			name:  "an agent author is known before the message exists",
			in:    Input{Author: changes.Identity{Name: "Cursor Agent", Email: "cursoragent@cursor.com"}, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "author Cursor Agent",
			agents: []string{"cursoragent@cursor.com"},
		},
		{
			name:  "unknown: human",
			in:    Input{Message: msg(), HasMessage: true, Author: jane, Committer: jane},
			cfg:   policy("human"),
			actor: Human, evidence: "no agent marker",
		},
		{
			name:  "unknown: agent",
			in:    Input{Message: msg(), HasMessage: true, Author: jane, Committer: jane},
			cfg:   policy("agent"),
			actor: Agent, evidence: "attribution.unknown is agent",
		},
		{
			name:  "unknown: error",
			in:    Input{Message: msg(), HasMessage: true, Author: jane, Committer: jane},
			cfg:   policy("error"),
			actor: Unknown, evidence: "no agent or human marker",
		},
		{
			name:  "unknown: error with an empty message",
			in:    Input{Message: "", HasMessage: true},
			cfg:   policy("error"),
			actor: Unknown, evidence: "no agent or human marker",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := Decide(c.in, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if v.Actor != c.actor || v.Pending != c.pending {
				t.Errorf("actor %s pending %v, want %s pending %v (evidence %q)", v.Actor, v.Pending, c.actor, c.pending, v.Evidence)
			}
			if !strings.Contains(v.Evidence, c.evidence) {
				t.Errorf("evidence %q, want it to contain %q", v.Evidence, c.evidence)
			}
			if !reflect.DeepEqual(v.Agents, c.agents) {
				t.Errorf("agents %q, want %q", v.Agents, c.agents)
			}
			if v.Contradicted != "" {
				t.Errorf("contradicted %q, want none", v.Contradicted)
			}
		})
	}
}

func TestDecideErrors(t *testing.T) {
	def := config.Default().Attribution
	for name, in := range map[string]Input{
		"bad Small-Actor":              {Message: "Subject\n\nSmall-Actor: robot\n", HasMessage: true},
		"empty Small-Actor":            {Message: "Subject\n\nSmall-Actor:\n", HasMessage: true},
		"bad Small-Actor, agent marks": {Message: "Subject\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nSmall-Actor: bot\n", HasMessage: true},
		"bad SMALL_HOOK_ACTOR":         {Message: "Subject\n", HasMessage: true, EnvActor: "robot"},
		"bad first of two Small-Actor": {Message: "Subject\n\nSmall-Actor: robot\nSmall-Actor: human\n", HasMessage: true},
		"bad SMALL_HOOK_ACTOR, no msg": {EnvActor: "yes"},
	} {
		t.Run(name, func(t *testing.T) {
			v, err := Decide(in, def)
			if err == nil {
				t.Fatalf("no error; verdict %+v", v)
			}
			if !strings.Contains(err.Error(), "neither agent nor human") {
				t.Errorf("error %q does not say what is wrong", err)
			}
		})
	}
}
