package attribution

import (
	"fmt"
	"net/mail"
	"strings"

	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/gitdiff"
)

// Input is what is known about a change's author.
type Input struct {
	// Message is the commit message; HasMessage is false in the pre-commit
	// stage, before the message exists.
	Message    string
	HasMessage bool
	Author     gitdiff.Identity
	Committer  gitdiff.Identity
	// EnvActor is SMALL_HOOK_ACTOR: "agent", "human" or "".
	EnvActor string
}

// knownAgent is an identity coding agents commit with, from their own
// documentation and commits (see README).
type knownAgent struct {
	tool  string
	email string // glob, matched case-insensitively
}

// knownAgents lists the identities recognised out of the box.
func knownAgents() []knownAgent {
	return []knownAgent{
		{"Claude Code", "noreply@anthropic.com"},
		{"aider", "aider@aider.chat"},
		{"aider", "noreply@aider.chat"},
		{"GitHub Copilot coding agent", "*+copilot@users.noreply.github.com"},
		{"Cursor agent", "cursoragent@cursor.com"},
	}
}

// agentTrailers are trailer keys whose presence marks an agent.
func agentTrailers() []string { return []string{"Assisted-by", "Generated-by"} }

// Decide attributes a change. In order: an explicit `Small-Actor:` trailer,
// then SMALL_HOOK_ACTOR, then agent markers (co-author trailers, policy
// trailers, author or committer identity, configured identities and
// trailers); otherwise the configured default for undecided changes — or,
// before the commit message exists, a pending verdict.
func Decide(in Input, cfg config.Attribution) (Verdict, error) {
	trailers := ParseTrailers(in.Message)
	for i := len(trailers) - 1; i >= 0; i-- {
		t := trailers[i]
		if strings.EqualFold(t.Key, "Small-Actor") {
			a, err := parseActor(t.Value)
			if err != nil {
				return Verdict{}, fmt.Errorf("trailer Small-Actor: %w", err)
			}
			return Verdict{Actor: a, Evidence: "trailer Small-Actor: " + t.Value, Agents: agentsNamed(in, trailers, cfg)}, nil
		}
	}
	if in.EnvActor != "" {
		a, err := parseActor(in.EnvActor)
		if err != nil {
			return Verdict{}, fmt.Errorf("SMALL_HOOK_ACTOR: %w", err)
		}
		return Verdict{Actor: a, Evidence: "SMALL_HOOK_ACTOR=" + in.EnvActor, Agents: agentsNamed(in, trailers, cfg)}, nil
	}
	if evidence := agentMarker(in, trailers, cfg); evidence != "" {
		return Verdict{Actor: Agent, Evidence: evidence, Agents: agentsNamed(in, trailers, cfg)}, nil
	}
	if !in.HasMessage {
		return Verdict{Actor: Unknown, Pending: true, Evidence: "no commit message yet (pre-commit stage); the commit-msg hook decides"}, nil
	}
	switch cfg.Unknown {
	case "agent":
		return Verdict{Actor: Agent, Evidence: "no agent or human marker; attribution.unknown is agent"}, nil
	case "error":
		return Verdict{Actor: Unknown, Evidence: "no agent or human marker"}, nil
	}
	return Verdict{Actor: Human, Evidence: "no agent marker"}, nil
}

func parseActor(s string) (Actor, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "agent":
		return Agent, nil
	case "human":
		return Human, nil
	}
	return "", fmt.Errorf("%q is neither agent nor human", s)
}

// agentMarker returns the first piece of evidence that an agent made the
// change, or "".
func agentMarker(in Input, trailers []Trailer, cfg config.Attribution) string {
	for _, t := range trailers {
		if isCoAuthor(t.Key) {
			if id := parseIdentity(t.Value); isAgent(id, cfg) {
				return fmt.Sprintf("trailer %s: %s", t.Key, t.Value)
			}
		}
		for _, k := range append(agentTrailers(), cfg.Trailers...) {
			if strings.EqualFold(t.Key, k) {
				return fmt.Sprintf("trailer %s: %s", t.Key, t.Value)
			}
		}
	}
	for _, who := range []struct {
		role string
		id   gitdiff.Identity
	}{{"author", in.Author}, {"committer", in.Committer}} {
		if isAgent(who.id, cfg) {
			return fmt.Sprintf("%s %s <%s>", who.role, who.id.Name, who.id.Email)
		}
	}
	return ""
}

// agentsNamed lists the agent identities a commit names, e-mail first.
func agentsNamed(in Input, trailers []Trailer, cfg config.Attribution) []string {
	var out []string
	add := func(id gitdiff.Identity) {
		if !isAgent(id, cfg) {
			return
		}
		s := id.Email
		if s == "" {
			s = id.Name
		}
		for _, x := range out {
			if x == s {
				return
			}
		}
		out = append(out, s)
	}
	for _, t := range trailers {
		if isCoAuthor(t.Key) {
			add(parseIdentity(t.Value))
		}
	}
	add(in.Author)
	add(in.Committer)
	return out
}

func isCoAuthor(key string) bool { return strings.EqualFold(key, "Co-authored-by") }

// parseIdentity reads "Name <email>".
func parseIdentity(s string) gitdiff.Identity {
	if a, err := mail.ParseAddress(s); err == nil {
		return gitdiff.Identity{Name: a.Name, Email: a.Address}
	}
	name, rest, ok := strings.Cut(s, "<")
	if !ok {
		return gitdiff.Identity{Name: strings.TrimSpace(s)}
	}
	email, _, _ := strings.Cut(rest, ">")
	return gitdiff.Identity{Name: strings.TrimSpace(name), Email: strings.TrimSpace(email)}
}

// isAgent reports whether an identity is a known or configured agent.
func isAgent(id gitdiff.Identity, cfg config.Attribution) bool {
	email := strings.ToLower(id.Email)
	if email == "" && id.Name == "" {
		return false
	}
	for _, k := range knownAgents() {
		if config.Match(k.email, email) {
			return true
		}
	}
	if strings.HasSuffix(strings.TrimSpace(id.Name), "(aider)") {
		return true
	}
	for _, a := range cfg.Agents {
		if a.Email != "" {
			if !config.Match(strings.ToLower(a.Email), email) {
				continue
			}
		}
		if a.Name != "" {
			if !config.Match(a.Name, id.Name) {
				continue
			}
		}
		return true
	}
	return false
}
