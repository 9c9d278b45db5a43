package attribution

import (
	"net/mail"
	"strings"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
)

// knownAgent is an identity that a coding agent commits or co-authors with.
type knownAgent struct {
	tool string
	// email is a glob (`*`, `?`) in lower case; e-mails are compared
	// case-insensitively.
	email string
}

// knownAgents are the identities recognised without configuration, as the
// agents write them into commits:
//
//   - Claude Code: the trailer `Co-Authored-By: Claude <noreply@anthropic.com>`
//     (the model name varies); the Claude GitHub app commits as claude[bot].
//   - aider: `Co-authored-by: aider (<model>) <aider@aider.chat>`, in older
//     releases noreply@aider.chat; or "(aider)" appended to the author's
//     name (see aiderSuffix).
//   - GitHub Copilot coding agent: the author
//     `Copilot <198982749+Copilot@users.noreply.github.com>`.
//   - Cursor's agent: the author `Cursor Agent <cursoragent@cursor.com>`.
//   - Devin: `Co-Authored-By: Devin <158243242+devin-ai-integration[bot]@users.noreply.github.com>`.
//   - Google Jules: google-labs-jules[bot] as author or co-author.
//   - Amp: `Co-authored-by: Amp <amp@ampcode.com>`.
//
// A GitHub App's address is "<user id>+<app>[bot]@users.noreply.github.com";
// the patterns leave the id open. Brackets are literal in these globs.
func knownAgents() []knownAgent {
	return []knownAgent{
		{"Claude Code", "noreply@anthropic.com"},
		{"Claude GitHub app", "*+claude[bot]@users.noreply.github.com"},
		{"aider", "aider@aider.chat"},
		{"aider", "noreply@aider.chat"},
		{"GitHub Copilot coding agent", "*+copilot@users.noreply.github.com"},
		{"Cursor agent", "cursoragent@cursor.com"},
		{"Devin", "*+devin-ai-integration[bot]@users.noreply.github.com"},
		{"Google Jules", "*+google-labs-jules[bot]@users.noreply.github.com"},
		{"Amp", "amp@ampcode.com"},
	}
}

// aiderSuffix ends the author name of commits aider makes in the user's
// name (its --attribute-author setting).
const aiderSuffix = "(aider)"

// agentTrailers are trailer keys whose presence marks an agent, whatever
// their value: the policy trailers `Assisted-by: AGENT:MODEL` (Linux
// kernel) and `Generated-by:`.
func agentTrailers() []string { return []string{"Assisted-by", "Generated-by"} }

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
