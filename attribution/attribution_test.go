package attribution

import (
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/gitdiff"
)

// gitParse runs `git interpret-trailers --parse` on msg, isolated from the
// user's and the system's git configuration, and returns its lines.
func gitParse(t *testing.T, msg string) []string {
	t.Helper()
	cmd := exec.Command("git", "interpret-trailers", "--parse")
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	cmd.Stdin = strings.NewReader(msg)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git interpret-trailers --parse: %v", err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

func TestParseTrailersMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cases := []struct {
		name string
		msg  string
		// want is what ParseTrailers must return, as "Key: value"; it is
		// also checked against git.
		want []string
	}{
		{
			name: "last paragraph",
			msg:  "Add the thing\n\nLonger explanation.\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nAssisted-by: aider\n",
			want: []string{"Co-Authored-By: Claude <noreply@anthropic.com>", "Assisted-by: aider"},
		},
		{
			name: "a Key: value line in the middle of the body",
			msg:  "Add the thing\n\nNote: this is prose, not a trailer.\nIt goes on.\n\nThe end of the body.\n",
		},
		{
			name: "a trailer-like paragraph that is not the last",
			msg:  "Add the thing\n\nGenerated-by: nothing\n\nFinal words here.\n",
		},
		{
			name: "subject only",
			msg:  "Assisted-by: claude\n",
		},
		{
			name: "subject only, no newline",
			msg:  "Small-Actor: human",
		},
		{
			name: "empty",
			msg:  "",
		},
		{
			name: "comment lines are stripped",
			msg:  "Subject\n\nBody.\n\nCo-authored-by: A <a@example.com>\n# Please enter the commit message for your changes.\n# Lines starting with '#' will be ignored.\n",
			want: []string{"Co-authored-by: A <a@example.com>"},
		},
		{
			name: "a comment line inside the trailer block",
			msg:  "Subject\n\nBody.\n\nCo-authored-by: A <a@example.com>\n# a comment\nSmall-Actor: agent\n",
			want: []string{"Co-authored-by: A <a@example.com>", "Small-Actor: agent"},
		},
		{
			name: "the scissors line and what follows",
			msg:  "Subject\n\nBody.\n\nSmall-Actor: human\n# ------------------------ >8 ------------------------\n# Do not modify or remove the line above.\ndiff --git a/x b/x\n\nAssisted-by: not-a-trailer\n",
			want: []string{"Small-Actor: human"},
		},
		{
			name: "continuation lines",
			msg:  "Subject\n\nBody.\n\nGenerated-by: a tool with a very long\n  description that wraps\n\tand wraps again\nSmall-Actor: agent\n",
			want: []string{"Generated-by: a tool with a very long description that wraps and wraps again", "Small-Actor: agent"},
		},
		{
			name: "Signed-off-by with 25% trailers",
			msg:  "Subject\n\nBody.\n\nsome prose\nmore prose\neven more prose\nSigned-off-by: A <a@example.com>\n",
			want: []string{"Signed-off-by: A <a@example.com>"},
		},
		{
			name: "Signed-off-by with fewer than 25% trailers",
			msg:  "Subject\n\nBody.\n\nsome prose\nmore prose\neven more prose\nand more\nSigned-off-by: A <a@example.com>\n",
		},
		{
			name: "two trailers and six prose lines with Signed-off-by",
			msg:  "Subject\n\nBody.\n\np1\np2\np3\np4\np5\np6\nSigned-off-by: A <a@example.com>\nCo-authored-by: B <b@example.com>\n",
			want: []string{"Signed-off-by: A <a@example.com>", "Co-authored-by: B <b@example.com>"},
		},
		{
			name: "prose in the last paragraph without a git trailer",
			msg:  "Subject\n\nBody.\n\nsome prose\nCo-authored-by: B <b@example.com>\nAssisted-by: x\nGenerated-by: y\n",
		},
		{
			name: "cherry-picked",
			msg:  "Subject\n\nBody.\n\nprose a\nprose b\n(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\nCo-authored-by: B <b@example.com>\n",
			want: []string{"Co-authored-by: B <b@example.com>"},
		},
		{
			name: "trailing blank lines",
			msg:  "Subject\n\nBody.\n\nSmall-Actor: human\n\n\n\n",
			want: []string{"Small-Actor: human"},
		},
		{
			name: "a --- divider ends the message",
			msg:  "Subject\n\nBody.\n\nSmall-Actor: human\n---\nNot-Parsed: x\n",
			want: []string{"Small-Actor: human"},
		},
		{
			name: "CRLF line endings",
			msg:  "Subject\r\n\r\nBody.\r\n\r\nSmall-Actor: agent\r\n",
			want: []string{"Small-Actor: agent"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, tr := range ParseTrailers(c.msg) {
				got = append(got, tr.Key+": "+tr.Value)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("ParseTrailers = %q, want %q", got, c.want)
			}
			if g := gitParse(t, c.msg); !reflect.DeepEqual(g, c.want) {
				t.Errorf("git interpret-trailers --parse = %q, the table says %q", g, c.want)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	def := config.Default().Attribution
	extra := def
	extra.Agents = []config.Identity{{Email: "*@bots.corp.example"}, {Name: "*[bot]"}}
	extra.Trailers = []string{"X-Agent"}
	policy := func(p string) config.Attribution { a := def; a.Unknown = p; return a }

	jane := gitdiff.Identity{Name: "Jane Doe", Email: "jane@example.com"}
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
			in:    Input{Message: msg(), HasMessage: true, Author: gitdiff.Identity{Name: "Jane Doe (aider)", Email: "jane@example.com"}, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "author Jane Doe (aider) <jane@example.com>",
			agents: []string{"jane@example.com"},
		},
		{
			name:  "Copilot coding agent author",
			in:    Input{Message: msg(), HasMessage: true, Author: gitdiff.Identity{Name: "Copilot", Email: "198982749+Copilot@users.noreply.github.com"}, Committer: gitdiff.Identity{Name: "GitHub", Email: "noreply@github.com"}},
			cfg:   def,
			actor: Agent, evidence: "author Copilot <198982749+Copilot@users.noreply.github.com>",
			agents: []string{"198982749+Copilot@users.noreply.github.com"},
		},
		{
			name:  "Cursor agent author",
			in:    Input{Message: msg(), HasMessage: true, Author: gitdiff.Identity{Name: "Cursor Agent", Email: "cursoragent@cursor.com"}, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "author Cursor Agent <cursoragent@cursor.com>",
			agents: []string{"cursoragent@cursor.com"},
		},
		{
			name:  "Cursor agent committer",
			in:    Input{Message: msg(), HasMessage: true, Author: jane, Committer: gitdiff.Identity{Name: "Cursor Agent", Email: "cursoragent@cursor.com"}},
			cfg:   def,
			actor: Agent, evidence: "committer Cursor Agent <cursoragent@cursor.com>",
			agents: []string{"cursoragent@cursor.com"},
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
			in:    Input{Message: msg(), HasMessage: true, Author: gitdiff.Identity{Name: "CI", Email: "ci@bots.corp.example"}, Committer: jane},
			cfg:   extra,
			actor: Agent, evidence: "author CI <ci@bots.corp.example>",
			agents: []string{"ci@bots.corp.example"},
		},
		{
			name:  "configured e-mail glob, case-insensitive",
			in:    Input{Message: msg(), HasMessage: true, Author: gitdiff.Identity{Name: "CI", Email: "CI@Bots.Corp.Example"}, Committer: jane},
			cfg:   extra,
			actor: Agent, evidence: "author CI",
			agents: []string{"CI@Bots.Corp.Example"},
		},
		{
			name:  "configured e-mail glob does not match a longer domain",
			in:    Input{Message: msg(), HasMessage: true, Author: gitdiff.Identity{Name: "CI", Email: "ci@bots.corp.example.org"}, Committer: jane},
			cfg:   extra,
			actor: Human, evidence: "no agent marker",
		},
		{
			name:  "configured name glob with literal brackets",
			in:    Input{Message: msg(), HasMessage: true, Author: gitdiff.Identity{Name: "renovate[bot]", Email: "29139614+renovate[bot]@users.noreply.github.com"}, Committer: jane},
			cfg:   extra,
			actor: Agent, evidence: "author renovate[bot]",
			agents: []string{"29139614+renovate[bot]@users.noreply.github.com"},
		},
		{
			name:  "brackets are not a character class",
			in:    Input{Message: msg(), HasMessage: true, Author: gitdiff.Identity{Name: "robot", Email: "robot@example.com"}, Committer: jane},
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
			name:  "Small-Actor: human wins over an agent author and co-author",
			in:    Input{Message: msg(claude, "Small-Actor: human"), HasMessage: true, Author: gitdiff.Identity{Name: "Cursor Agent", Email: "cursoragent@cursor.com"}, Committer: jane},
			cfg:   def,
			actor: Human, evidence: "trailer Small-Actor: human",
			agents: []string{"noreply@anthropic.com", "cursoragent@cursor.com"},
		},
		{
			name:  "Small-Actor: agent on a plain commit",
			in:    Input{Message: msg("small-actor: Agent"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Agent, evidence: "trailer Small-Actor: Agent",
		},
		{
			name:  "the last Small-Actor wins",
			in:    Input{Message: msg("Small-Actor: agent", "Small-Actor: human"), HasMessage: true, Author: jane, Committer: jane},
			cfg:   def,
			actor: Human, evidence: "trailer Small-Actor: human",
		},
		{
			name:  "Small-Actor wins over SMALL_HOOK_ACTOR",
			in:    Input{Message: msg("Small-Actor: human"), HasMessage: true, Author: jane, Committer: jane, EnvActor: "agent"},
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
			name:  "SMALL_HOOK_ACTOR=human wins over markers",
			in:    Input{Message: msg(claude), HasMessage: true, Author: jane, Committer: jane, EnvActor: "human"},
			cfg:   def,
			actor: Human, evidence: "SMALL_HOOK_ACTOR=human",
			agents: []string{"noreply@anthropic.com"},
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
			in:    Input{Author: gitdiff.Identity{Name: "Cursor Agent", Email: "cursoragent@cursor.com"}, Committer: jane},
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
