// Package attribution decides whether a change was made by a human or by an
// agent, from commit signatures, commit trailers, author and committer
// identity, and the repository's configuration. Rules consume its Verdict.
package attribution

import "github.com/small-hook/small-hook/signature"

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
}
