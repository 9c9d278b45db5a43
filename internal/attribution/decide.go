package attribution

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/signature"
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
	// Signature is the commit's signature as the repository's signature
	// policy judged it (signature.Policy.Verify); nil when no policy is
	// configured or the commit does not exist yet.
	Signature *signature.Status
	// Readiness is, before the commit exists, what git's signing settings
	// promise (signature.Policy.Readiness); nil when not judged.
	Readiness *signature.Readiness
	// Setup tells, in the pre-commit stage, what runs after it (see
	// Setup); nil elsewhere. Finding out asks git, so it is asked only
	// when a check needs it; it returns nil when it cannot tell.
	Setup func() *Setup
	// Pusher is the account a server authenticated for the push that
	// brings the commit (the pre-receive hook), and PusherSource the
	// variable the server named it in (GL_USERNAME, ...); "" elsewhere.
	// Unlike a trailer or an identity, it is a fact the commit cannot
	// forge.
	Pusher, PusherSource string
}

// actorTrailer is the trailer that states the actor explicitly.
const actorTrailer = "Small-Actor"

// Decide attributes a change. A valid signature by a key the policy allows
// for the committer is the one evidence an agent cannot fabricate: it
// makes the commit human whatever the message and identities say, and any
// evidence of an agent on it is kept in Disputed for the rules to report.
// Otherwise evidence of an agent always wins: a `Small-Actor: agent`
// trailer or SMALL_HOOK_ACTOR=agent, a co-author naming a known agent (as a
// trailer or as a line anywhere in the message), Assisted-by and
// Generated-by trailers, an agent author or committer, configured
// identities and trailers. A self-declared human claim (`Small-Actor:
// human`, SMALL_HOOK_ACTOR=human) decides only when there is no such
// evidence; when there is, the verdict is agent and Contradicted names the
// claim. Without either, the configured default for undecided changes
// applies, or, before the commit message exists, a pending verdict. A
// Small-Actor or SMALL_HOOK_ACTOR value other than agent or human is an
// error, whichever of several trailers holds it, signed or not.
func Decide(in Input, cfg config.Attribution) (Verdict, error) {
	v, err := decideActor(in, cfg)
	if err != nil {
		return v, err
	}
	v.Signature, v.Readiness, v.Setup = in.Signature, in.Readiness, in.Setup
	v.Rewrite = rewriteReason(in)
	return v, nil
}

func decideActor(in Input, cfg config.Attribution) (Verdict, error) {
	trailers := ParseTrailers(in.Message)
	agents := agentsNamed(in, trailers, cfg)
	agentClaim, humanClaim, err := claims(in, trailers)
	if err != nil {
		return Verdict{}, err
	}
	pusher := agentPusher(in, cfg)
	evidence := ""
	if pusher != "" {
		evidence = "pushed by the agent account " + pusher
	}
	if evidence == "" {
		evidence = agentClaim
	}
	if evidence == "" {
		evidence = agentMarker(in, trailers, cfg)
	}
	switch {
	case in.Signature != nil && in.Signature.Verdict == signature.Valid:
		return Verdict{Actor: Human, Evidence: in.Signature.String(), Agents: agents, Disputed: evidence, Pusher: pusher}, nil
	case evidence != "" && humanClaim != "":
		return Verdict{
			Actor:        Agent,
			Evidence:     evidence + " (overrides the self-declared " + humanClaim + ")",
			Agents:       agents,
			Contradicted: humanClaim,
			Pusher:       pusher,
		}, nil
	case evidence != "":
		return Verdict{Actor: Agent, Evidence: evidence, Agents: agents, Pusher: pusher}, nil
	case humanClaim != "":
		return Verdict{Actor: Human, Evidence: humanClaim, Agents: agents}, nil
	case !in.HasMessage:
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

// claims returns the first self-declared agent claim and the first human
// claim, from the Small-Actor trailers (every one of them is read) and then
// SMALL_HOOK_ACTOR, each as evidence text, "" when there is none.
func claims(in Input, trailers []Trailer) (agent, human string, err error) {
	note := func(a Actor, evidence string) {
		switch {
		case a == Agent && agent == "":
			agent = evidence
		case a == Human && human == "":
			human = evidence
		}
	}
	for _, t := range trailers {
		if !strings.EqualFold(t.Key, actorTrailer) {
			continue
		}
		a, err := parseActor(t.Value)
		if err != nil {
			return "", "", fmt.Errorf("trailer %s: %w", t.Key, err)
		}
		note(a, "trailer "+t.Key+": "+clip(t.Value))
	}
	if in.EnvActor != "" {
		a, err := parseActor(in.EnvActor)
		if err != nil {
			return "", "", fmt.Errorf("SMALL_HOOK_ACTOR: %w", err)
		}
		note(a, "SMALL_HOOK_ACTOR="+clip(in.EnvActor))
	}
	return agent, human, nil
}

func parseActor(s string) (Actor, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "agent":
		return Agent, nil
	case "human":
		return Human, nil
	}
	return "", fmt.Errorf("%q is neither agent nor human", clip(s))
}

// agentPusher names the agent account the server authenticated for the
// push that brings the commit, and the variable that named it
// ("claude-bot (GL_USERNAME)"), or returns "" when the pusher is no agent
// account. Account names are matched case-insensitively, as GitLab,
// Gitea, Forgejo and GitHub treat them: Claude-Bot is claude-bot.
func agentPusher(in Input, cfg config.Attribution) string {
	if in.Pusher == "" {
		return ""
	}
	for _, a := range cfg.Agents {
		if a.Pusher != "" && config.Match(strings.ToLower(a.Pusher), strings.ToLower(in.Pusher)) {
			return fmt.Sprintf("%s (%s)", clip(in.Pusher), in.PusherSource)
		}
	}
	return ""
}

// agentMarker returns the first evidence that an agent made the change,
// or "": an agent co-author names the agent, so it is preferred to a
// trailer that only marks one.
//
// The co-authors of GitHub's squash of a pull request are no evidence
// (see isGitHubSquash): they are the pull request's authors, whose
// commits were judged as themselves.
func agentMarker(in Input, trailers []Trailer, cfg config.Attribution) string {
	squash := isGitHubSquash(in)
	for _, t := range trailers {
		if !squash && isCoAuthor(t.Key) && isAgent(parseIdentity(t.Value), cfg) {
			return "trailer " + t.Key + ": " + clip(t.Value)
		}
	}
	keys := append(agentTrailers(), cfg.Trailers...)
	for _, t := range trailers {
		for _, k := range keys {
			if strings.EqualFold(t.Key, k) {
				return "trailer " + t.Key + ": " + clip(t.Value)
			}
		}
	}
	for _, who := range []struct {
		role string
		id   changes.Identity
	}{{"author", in.Author}, {"committer", in.Committer}} {
		if isAgent(who.id, cfg) {
			return fmt.Sprintf("%s %s <%s>", who.role, clip(who.id.Name), clip(who.id.Email))
		}
	}
	if squash {
		return ""
	}
	for _, l := range coAuthorLines(in.Message) {
		if isAgent(parseIdentity(l.Value), cfg) {
			return "message line " + l.Key + ": " + clip(l.Value) + " (a co-author outside the trailers)"
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
	for _, l := range coAuthorLines(in.Message) {
		add(parseIdentity(l.Value))
	}
	return out
}

func isCoAuthor(key string) bool { return strings.EqualFold(key, "Co-authored-by") }

// coAuthorLines returns every `Co-authored-by: value` line of the message
// proper, trailer or not, indented or not: a co-author line that is not in
// the last paragraph is no trailer to git, but it still says an agent took
// part.
func coAuthorLines(message string) []Trailer {
	var out []Trailer
	lines := splitLines(strings.ReplaceAll(message, "\r\n", "\n"))
	for _, l := range lines[:endOfMessage(lines)] {
		l = strings.TrimLeft(l, " \t")
		if isComment(l) {
			continue
		}
		if i := separator(l); i >= 1 && isCoAuthor(trimSpace(l[:i])) {
			out = append(out, Trailer{Key: trimSpace(l[:i]), Value: trimSpace(l[i+1:])})
		}
	}
	return out
}

// clipLength bounds the part of a value from a commit that a verdict
// repeats: messages never echo long raw values.
const clipLength = 72

// clip returns s, or its first clipLength characters and "…".
func clip(s string) string {
	r := []rune(s)
	if len(r) <= clipLength {
		return s
	}
	return string(r[:clipLength]) + "…"
}
