package attribution

import (
	"net/mail"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
)

// knownAgent is an identity that a coding agent commits or co-authors with.
type knownAgent struct {
	tool string
	// email is a glob (`*`, `?`) in lower case; e-mails are compared
	// case-insensitively.
	email string
}

// knownAgents are the identities recognised without configuration, as the
// agents and the tools around them write them into commits: as the author
// or committer, or in a Co-authored-by trailer. docs/attribution.md lists
// each with the public source it was taken from; keep the two together.
//
// A GitHub App's address is "<user id>+<app>[bot]@users.noreply.github.com";
// the patterns leave the id open. Brackets are literal in these globs.
// Addresses that humans commit with too are left out: GitHub's
// noreply@github.com, for one, commits every merge made on github.com.
func knownAgents() []knownAgent {
	const app = "@users.noreply.github.com"
	return []knownAgent{
		{"Claude Code", "noreply@anthropic.com"},
		{"Claude GitHub app", "*+claude[bot]" + app},
		{"Claude GitHub app", "*+anthropic-claude[bot]" + app},
		{"Claude Code GitHub Action", "*+claude-code-action[bot]" + app},
		{"aider", "aider@aider.chat"},
		{"aider", "noreply@aider.chat"},
		{"aider", "noreply@aider.dev"},
		{"OpenAI Codex", "noreply@openai.com"},
		{"OpenAI Codex", "codex@openai.com"},
		{"OpenAI Codex GitHub app", "*+openai-codex[bot]" + app},
		{"Codex in ChatGPT (cloud)", "*+chatgpt-codex-connector[bot]" + app},
		{"GitHub Copilot coding agent and CLI", "*+copilot" + app},
		{"GitHub Copilot app", "*+copilot[bot]" + app},
		{"GitHub Copilot in VS Code", "copilot@github.com"},
		{"Cursor agent", "cursoragent@cursor.com"},
		{"Cursor GitHub app", "*+cursor[bot]" + app},
		{"Devin", "*+devin-ai-integration[bot]" + app},
		{"Google Jules", "*+google-labs-jules[bot]" + app},
		{"Gemini CLI", "gemini-cli-agent@google.com"},
		{"Gemini Code Assist GitHub app", "*+gemini-code-assist[bot]" + app},
		{"Amp", "amp@ampcode.com"},
		{"opencode", "noreply@opencode.ai"},
		{"opencode GitHub agent", "*+opencode-agent[bot]" + app},
		{"OpenHands", "openhands@all-hands.dev"},
		{"OpenHands", "openhands@openhands.dev"},
		{"OpenHands GitHub account", "*+openhands-agent" + app},
		{"Factory droid", "*+factory-droid[bot]" + app},
		{"Windsurf", "noreply@codeium.com"},
		{"Cline", "noreply@cline.bot"},
		{"Cline GitHub app", "*+cline[bot]" + app},
		{"Roo Code", "support@roocode.com"},
		{"Continue GitHub app", "*+continue[bot]" + app},
		{"Amazon Q Developer GitHub app", "*+amazon-q-developer[bot]" + app},
		{"Sweep", "*+sweep-ai[bot]" + app},
	}
}

// aiderSuffix ends the author name of commits aider makes in the user's
// name (its --attribute-author setting).
const aiderSuffix = "(aider)"

// agentTrailers are trailer keys whose presence marks an agent, whatever
// their value: the policy trailers `Assisted-by: AGENT:MODEL` (Linux
// kernel, Fedora), `Generated-by:` (Apache), `AI-Assisted-By:` and
// `Co-authored-by-AI:` (project conventions), and the session trailers
// agents write beside their co-author line: Amp's `Amp-Thread-ID:` and
// `Amp-Thread:`, Claude Code's `Claude-Session:`.
func agentTrailers() []string {
	return []string{"Assisted-by", "Generated-by", "AI-Assisted-By", "Co-authored-by-AI", "Amp-Thread-ID", "Amp-Thread", "Claude-Session"}
}

// isAgent reports whether an identity is a known or a configured agent.
func isAgent(id changes.Identity, cfg config.Attribution) bool {
	email := strings.ToLower(strings.TrimSpace(id.Email))
	name := strings.TrimSpace(id.Name)
	if email == "" && name == "" {
		return false
	}
	if email != "" {
		for _, k := range knownAgents() {
			if config.Match(k.email, email) {
				return true
			}
		}
	}
	if strings.HasSuffix(name, aiderSuffix) {
		return true
	}
	for _, a := range cfg.Agents {
		if a.Pusher != "" {
			continue
		}
		if a.Email != "" && !config.Match(strings.ToLower(a.Email), email) {
			continue
		}
		if a.Name != "" && !config.Match(a.Name, name) {
			continue
		}
		return true
	}
	return false
}

// parseIdentity reads a trailer value "Name <email>"; a value without an
// address is all name.
func parseIdentity(s string) changes.Identity {
	if a, err := mail.ParseAddress(s); err == nil {
		return changes.Identity{Name: a.Name, Email: a.Address}
	}
	name, rest, ok := strings.Cut(s, "<")
	if !ok {
		return changes.Identity{Name: strings.TrimSpace(s)}
	}
	email, _, _ := strings.Cut(rest, ">")
	return changes.Identity{Name: strings.TrimSpace(name), Email: strings.TrimSpace(email)}
}
