package attribution

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
)

// TestAgentEvidenceBeatsHumanClaims: a self-declared human claim never
// overrides evidence of an agent, however the claim or the evidence is
// spelled or placed; the verdict names both.
func TestAgentEvidenceBeatsHumanClaims(t *testing.T) {
	def := config.Default().Attribution
	withTrailer := def
	withTrailer.Trailers = []string{"X-Agent"}
	jane := changes.Identity{Name: "Jane Doe", Email: "jane@example.com"}
	copilot := changes.Identity{Name: "Copilot", Email: "198982749+Copilot@users.noreply.github.com"}
	cursor := changes.Identity{Name: "Cursor Agent", Email: "cursoragent@cursor.com"}
	const claude = "Co-Authored-By: Claude <noreply@anthropic.com>"
	msg := func(lines ...string) string {
		return "Edit the intent\n\nBody text.\n\n" + strings.Join(lines, "\n") + "\n"
	}
	cases := []struct {
		name         string
		in           Input
		cfg          config.Attribution
		evidence     string // a substring of the evidence
		contradicted string
	}{
		{"Claude co-author and Small-Actor: human", Input{Message: msg(claude, "Small-Actor: human"), HasMessage: true, Author: jane, Committer: jane}, def,
			"trailer Co-Authored-By: Claude <noreply@anthropic.com>", "trailer Small-Actor: human"},
		{"the claim before the co-author", Input{Message: msg("Small-Actor: human", claude), HasMessage: true, Author: jane, Committer: jane}, def,
			"trailer Co-Authored-By: Claude", "trailer Small-Actor: human"},
		{"a Copilot author and Small-Actor: human", Input{Message: msg("Small-Actor: human"), HasMessage: true, Author: copilot, Committer: jane}, def,
			"author Copilot <198982749+Copilot@users.noreply.github.com>", "trailer Small-Actor: human"},
		{"an agent committer with a human author", Input{Message: msg("Small-Actor: human"), HasMessage: true, Author: jane, Committer: cursor}, def,
			"committer Cursor Agent <cursoragent@cursor.com>", "trailer Small-Actor: human"},
		{"SMALL_HOOK_ACTOR=human and a Claude co-author", Input{Message: msg(claude), HasMessage: true, Author: jane, Committer: jane, EnvActor: "human"}, def,
			"trailer Co-Authored-By: Claude", "SMALL_HOOK_ACTOR=human"},
		{"SMALL_HOOK_ACTOR=human before the message, agent author", Input{Author: cursor, Committer: jane, EnvActor: "human"}, def,
			"author Cursor Agent", "SMALL_HOOK_ACTOR=human"},
		{"keys in capitals", Input{Message: msg("CO-AUTHORED-BY: Claude <NOREPLY@ANTHROPIC.COM>", "SMALL-ACTOR: HUMAN"), HasMessage: true, Author: jane, Committer: jane}, def,
			"trailer CO-AUTHORED-BY: Claude <NOREPLY@ANTHROPIC.COM>", "trailer SMALL-ACTOR: HUMAN"},
		{"blanks before the colon", Input{Message: msg("Co-authored-by : Claude <noreply@anthropic.com>", "Small-Actor :  human "), HasMessage: true, Author: jane, Committer: jane}, def,
			"trailer Co-authored-by: Claude", "trailer Small-Actor: human"},
		{"Small-Actor: agent, then Small-Actor: human", Input{Message: msg("Small-Actor: agent", "Small-Actor: human"), HasMessage: true, Author: jane, Committer: jane}, def,
			"trailer Small-Actor: agent", "trailer Small-Actor: human"},
		{"Small-Actor: human, then Small-Actor: agent", Input{Message: msg("Small-Actor: human", "Small-Actor: agent"), HasMessage: true, Author: jane, Committer: jane}, def,
			"trailer Small-Actor: agent", "trailer Small-Actor: human"},
		{"SMALL_HOOK_ACTOR=agent and Small-Actor: human", Input{Message: msg("Small-Actor: human"), HasMessage: true, Author: jane, Committer: jane, EnvActor: "agent"}, def,
			"SMALL_HOOK_ACTOR=agent", "trailer Small-Actor: human"},
		{"a co-author line in the body, the claim in the trailers", Input{Message: "Edit\n\n" + claude + "\n\nMore text after it.\n\nSmall-Actor: human\n", HasMessage: true, Author: jane, Committer: jane}, def,
			"message line Co-Authored-By: Claude <noreply@anthropic.com> (a co-author outside the trailers)", "trailer Small-Actor: human"},
		{"an indented co-author line", Input{Message: "Edit\n\n    " + claude + "\n    quoted\n\nSmall-Actor: human\n", HasMessage: true, Author: jane, Committer: jane}, def,
			"message line Co-Authored-By: Claude", "trailer Small-Actor: human"},
		{"Assisted-by and Small-Actor: human", Input{Message: msg("Assisted-by: Claude:claude-opus-4", "Small-Actor: human"), HasMessage: true, Author: jane, Committer: jane}, def,
			"trailer Assisted-by: Claude:claude-opus-4", "trailer Small-Actor: human"},
		{"a configured trailer and Small-Actor: human", Input{Message: msg("x-agent: bot", "Small-Actor: human"), HasMessage: true, Author: jane, Committer: jane}, withTrailer,
			"trailer x-agent: bot", "trailer Small-Actor: human"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := Decide(c.in, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if v.Actor != Agent || v.Pending {
				t.Errorf("actor %s (pending %v), want agent; evidence %q", v.Actor, v.Pending, v.Evidence)
			}
			if v.Contradicted != c.contradicted {
				t.Errorf("contradicted %q, want %q", v.Contradicted, c.contradicted)
			}
			if !strings.Contains(v.Evidence, c.evidence) || !strings.Contains(v.Evidence, c.contradicted) {
				t.Errorf("evidence %q must name both %q and %q", v.Evidence, c.evidence, c.contradicted)
			}
		})
	}
}

// TestAgentCoAuthorOutsideTheTrailers: a co-author line naming an agent
// marks an agent wherever it stands in the message proper; lines git
// drops (comments, the diff below the scissors) do not count.
func TestAgentCoAuthorOutsideTheTrailers(t *testing.T) {
	def := config.Default().Attribution
	jane := changes.Identity{Name: "Jane Doe", Email: "jane@example.com"}
	const claude = "Co-authored-by: Claude <noreply@anthropic.com>"
	cases := []struct {
		msg   string
		actor Actor
	}{
		{"Edit\n\n" + claude + "\n\nTrailing paragraph.\n", Agent},
		{"Edit\n\nSee: x\n" + claude + "\nnot a trailer line\n", Agent},
		{"Edit\n\n# " + claude + "\n", Human},
		{"Edit\n\nBody.\n" + scissorsLine + "+" + claude + "\n" + claude + "\n", Human},
		{"Edit\n\nCo-authored-by: Bob <bob@example.com>\n\nText.\n", Human},
	}
	for _, c := range cases {
		v, err := Decide(Input{Message: c.msg, HasMessage: true, Author: jane, Committer: jane}, def)
		if err != nil {
			t.Fatal(err)
		}
		if v.Actor != c.actor {
			t.Errorf("%q: actor %s (%s), want %s", c.msg, v.Actor, v.Evidence, c.actor)
		}
		if c.actor == Agent && (len(v.Agents) != 1 || v.Agents[0] != "noreply@anthropic.com") {
			t.Errorf("%q: agents %q", c.msg, v.Agents)
		}
	}
}

// TestAgentEvidenceIsBounded: a verdict never repeats more than a short
// prefix of a value from the commit.
func TestAgentEvidenceIsBounded(t *testing.T) {
	long := strings.Repeat("x", 5000)
	cases := []Input{
		{Message: "Edit\n\nCo-authored-by: Claude " + long + " <noreply@anthropic.com>\nSmall-Actor: human\n", HasMessage: true},
		{Message: "Edit\n\nSmall-Actor: human\n", HasMessage: true, Author: changes.Identity{Name: long + " (aider)", Email: long + "@example.com"}},
		{Message: "Edit\n\nGenerated-by: " + long + "\n", HasMessage: true},
		{Message: "Edit\n\nSmall-Actor: " + long + "\n", HasMessage: true},
	}
	for i, in := range cases {
		v, err := Decide(in, config.Default().Attribution)
		text := v.Evidence + v.Contradicted
		if err != nil {
			text = err.Error()
		}
		if strings.Contains(text, strings.Repeat("x", clipLength+1)) || len(text) > 4*clipLength {
			t.Errorf("case %d repeats %d characters: %.120q…", i, len(text), text)
		}
	}
}
