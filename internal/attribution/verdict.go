// Package attribution decides whether a change was made by a human or by an
// agent, from commit signatures, commit trailers, author and committer
// identity, and the repository's configuration. Rules consume its Verdict.
package attribution

import "github.com/small-hook/small-hook/internal/signature"

// Actor is who made a change.
type Actor string

// The three possible actors.
const (
	Agent   Actor = "agent"
	Human   Actor = "human"
	Unknown Actor = "unknown"
)

// Verdict is the actor of a change and the evidence that decided it.
type Verdict struct {
	Actor Actor
	// Evidence says what decided, for messages: "trailer Co-Authored-By:
	// Claude <noreply@anthropic.com>", "author Cursor Agent
	// <cursoragent@cursor.com>", "SMALL_HOOK_ACTOR=agent".
	Evidence string
	// Agents lists the agent identities the commit names (e-mails or names),
	// for checks that compare them with what the change records.
	Agents []string
	// Contradicted is the self-declared human claim that evidence of an
	// agent overrode ("trailer Small-Actor: human", "SMALL_HOOK_ACTOR=human"),
	// or "". A claim never outweighs evidence, and a false claim is itself
	// worth reporting.
	Contradicted string
	// Pending is true when the actor cannot be known yet: the pre-commit
	// stage runs before the commit message exists. Checks that need the
	// actor leave such a change to the commit-msg stage.
	Pending bool
	// Rewrite is the reason the commit gives, in a Small-Rewrite trailer,
	// for rewriting governed history on purpose (in the pre-commit stage:
	// SMALL_HOOK_REWRITE); "" when it gives none. Only a human commit may
	// rewrite; the rules then report the rewrite as a warning that lists
	// what was rewritten.
	Rewrite string
	// Signature is the verified signature of the commit; nil when no
	// signature policy is configured, and for a change that is not a
	// commit yet (the staged stages).
	Signature *signature.Status
	// Pusher is the agent account the server authenticated for the push
	// that brought the commit, and the variable that named it
	// ("claude-bot (GL_USERNAME)"), when that account made the commit an
	// agent's (or disputes a signature); "" otherwise. What the commit
	// says changes nothing then: a human's account pushing it does.
	Pusher string
	// Disputed is the evidence of an agent ("trailer Co-Authored-By: …",
	// "author Cursor Agent <…>") on a commit that a valid signature by an
	// allowed key proves human: the signature decides, and the rules report
	// the contradiction rather than resolve it silently. "" when there is
	// none.
	Disputed string
	// Readiness says, in the staged stages and only when signatures are
	// required, whether git's settings will sign the commit with a key the
	// policy accepts; nil otherwise.
	Readiness *signature.Readiness
	// Setup tells, in the pre-commit stage, what runs after it; nil
	// elsewhere. Read it through HookSetup.
	Setup func() *Setup
}

// HookSetup returns what runs after the pre-commit stage, asking for it
// the first time; nil outside the pre-commit stage or when it cannot be
// told (then nothing is left to the commit-msg stage: the pre-commit stage
// decides, and its advice names no commit-msg hook).
func (v Verdict) HookSetup() *Setup {
	if v.Setup == nil {
		return nil
	}
	return v.Setup()
}

// Setup is what the pre-commit stage knows of the hooks around it, for the
// checks that need the commit message: whether they can leave their
// decision to the commit-msg stage, and otherwise what a user of this
// setup does.
type Setup struct {
	// InCommit is true when the check runs inside `git commit` (git hands
	// its hooks GIT_INDEX_FILE), not by hand.
	InCommit bool
	// CommitMsg is true when the repository's commit-msg hook runs
	// small-hook's commit-msg check: small-hook's own hook, or the
	// pre-commit framework's with small-hook's commit-msg hook configured.
	CommitMsg bool
	// Install says how to install that hook in this setup, for advice:
	// "small-hook install", or the pre-commit framework's steps.
	Install string
}

// Deferred reports whether the pre-commit stage leaves the decisions that
// need the commit message to the commit-msg stage: the actor is not known
// yet, the check runs inside `git commit`, and the commit-msg hook will
// run small-hook with the message. Such checks then report nothing here;
// the commit-msg stage reports them once.
func (v Verdict) Deferred() bool {
	if !v.Pending {
		return false
	}
	s := v.HookSetup()
	return s != nil && s.InCommit && s.CommitMsg
}

// AsHuman says what makes a change an agent's evidence decided a human's,
// for advice: a push from a human's account when an agent account pushed
// it (the commit itself carries no marker to remove), else a commit
// without the agent's markers.
func (v Verdict) AsHuman() string {
	if v.Pusher != "" {
		return "a human's account pushes it: the agent account " + v.Pusher + " pushed it, and every commit an agent account pushes is an agent's, whatever its message says"
	}
	return "a human commits it without the agent's markers"
}

// MayRewrite reports whether the change may rewrite or retire governed
// history on purpose: a commit that stands as a human's (StandsAsHuman)
// and gives a Small-Rewrite reason.
func (v Verdict) MayRewrite() bool {
	return v.Rewrite != "" && v.StandsAsHuman()
}

// StandsAsHuman reports whether the change has a human's standing for a
// privilege (an intended rewrite, recording an adopted history): decided
// human, and no evidence of an agent at all. An agent marker withdraws the
// privilege whatever else the commit says, a valid signature by a human's
// key included (Disputed): a human's key on an agent's commit is exactly
// what the marker may be telling.
func (v Verdict) StandsAsHuman() bool {
	return !v.Pending && v.Actor == Human && v.Disputed == ""
}
