package attribution

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
)

// Input is what is known about who made a change.
type Input struct {
	// Message is the commit message; HasMessage is false in the pre-commit
	// stage, before the message exists.
	Message    string
	HasMessage bool
	Author     changes.Identity
	Committer  changes.Identity
	// EnvActor is SMALL_HOOK_ACTOR: "agent", "human" or "".
	EnvActor string
	// EnvRewrite is SMALL_HOOK_REWRITE: in the pre-commit stage, the reason
	// a change rewrites history on purpose, which the commit-msg stage
	// then requires as a Small-Rewrite trailer.
	EnvRewrite string
}

// actorTrailer is the trailer that states the actor explicitly.
const actorTrailer = "Small-Actor"

// Decide attributes a change. In order: an explicit `Small-Actor:` trailer
// (the last one, if several), then SMALL_HOOK_ACTOR, then agent markers
// (co-author trailers naming a known agent, Assisted-by and Generated-by
// trailers, an agent author or committer, configured identities and
// trailers); otherwise the configured default for undecided changes, or,
// before the commit message exists, a pending verdict. A Small-Actor or
// SMALL_HOOK_ACTOR value other than agent or human is an error.
func Decide(in Input, cfg config.Attribution) (Verdict, error) {
	v, err := decideActor(in, cfg)
	if err == nil {
		v.Rewrite = rewriteReason(in)
	}
	return v, err
}

func decideActor(in Input, cfg config.Attribution) (Verdict, error) {
	trailers := ParseTrailers(in.Message)
	agents := agentsNamed(in, trailers, cfg)
	for i := len(trailers) - 1; i >= 0; i-- {
		t := trailers[i]
		if strings.EqualFold(t.Key, actorTrailer) {
			a, err := parseActor(t.Value)
			if err != nil {
				return Verdict{}, fmt.Errorf("trailer %s: %w", t.Key, err)
			}
			return Verdict{Actor: a, Evidence: fmt.Sprintf("trailer %s: %s", t.Key, t.Value), Agents: agents}, nil
		}
	}
	if in.EnvActor != "" {
		a, err := parseActor(in.EnvActor)
		if err != nil {
			return Verdict{}, fmt.Errorf("SMALL_HOOK_ACTOR: %w", err)
		}
		return Verdict{Actor: a, Evidence: "SMALL_HOOK_ACTOR=" + in.EnvActor, Agents: agents}, nil
	}
	if evidence := agentMarker(in, trailers, cfg); evidence != "" {
		return Verdict{Actor: Agent, Evidence: evidence, Agents: agents}, nil
	}
	if !in.HasMessage {
		return Verdict{Actor: Unknown, Pending: true, Evidence: "no commit message yet (pre-commit stage); the commit-msg hook decides"}, nil
	}
	switch cfg.Unknown {
	case "agent":
		return Verdict{Actor: Agent, Evidence: "no agent marker; attribution.unknown is agent"}, nil
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

// agentMarker returns the first evidence that an agent made the change,
// or "".
func agentMarker(in Input, trailers []Trailer, cfg config.Attribution) string {
	keys := append(agentTrailers(), cfg.Trailers...)
	for _, t := range trailers {
		if isCoAuthor(t.Key) && isAgent(parseIdentity(t.Value), cfg) {
			return fmt.Sprintf("trailer %s: %s", t.Key, t.Value)
		}
		for _, k := range keys {
			if strings.EqualFold(t.Key, k) {
				return fmt.Sprintf("trailer %s: %s", t.Key, t.Value)
			}
		}
	}
	for _, who := range []struct {
		role string
		id   changes.Identity
	}{{"author", in.Author}, {"committer", in.Committer}} {
		if isAgent(who.id, cfg) {
			return fmt.Sprintf("%s %s <%s>", who.role, who.id.Name, who.id.Email)
		}
	}
	return ""
}

// agentsNamed lists the agent identities a commit names (co-authors, then
// author and committer), each by e-mail, or by name when it has none.
func agentsNamed(in Input, trailers []Trailer, cfg config.Attribution) []string {
	var out []string
	add := func(id changes.Identity) {
		if !isAgent(id, cfg) {
			return
		}
		s := id.Email
		if s == "" {
			s = id.Name
		}
		for _, x := range out {
			if strings.EqualFold(x, s) {
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
