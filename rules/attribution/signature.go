package attribution

import (
	"strings"

	actor "github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/signature"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/small"
)

func signatureRule(ownership *rules.Rule) *rules.Rule {
	return &rules.Rule{
		ID:       "attribution/signature",
		Severity: rules.Error,
		Doc: `Changes a human must make carry a signature an agent cannot forge (signatures.require)
Every other attribution signal (trailers, author names, e-mails) is self-declared. With a signatures section in .small-hook.yml (allowed-signers: a file in git's gpg.ssh.allowedSignersFile format, openpgp-keys: a file of armored OpenPGP public keys, both read from the same revision as the configuration, the base revision in range mode), each commit's SSH or OpenPGP signature is verified as git verify-commit does, and the key must also be allowed for the committer's e-mail. With require: human-owned, every commit that adds, edits or deletes a human-owned file (intent.small.yml and constraints.small.yml of any workspace, .small-hook.yml and the key files) must be signed that way; with require: human, so must every commit that is not an agent's and changes governed or policy files (an unsigned commit without agent markers is then an error, not a human's). Such a commit that is unsigned, signed with a key in neither file (unknown-key), with a key not allowed for the committer e-mail (principal-mismatch), outside the key's valid-after/valid-before or with an expired OpenPGP key (key-expired), with a revoked key, or whose signature does not match it (bad-signature) is an error that names the commit, the file and what was wrong. A merge commit is judged by what it writes of its own, not by a change it takes from a parent that made it; undoing a parent's change (a result equal to the merge base's version) is its own. A valid signature makes a commit human whatever its trailers say; when the commit also carries evidence of an agent (a co-author trailer, an agent author), the contradiction is reported, as an error on human-owned files and as a warning elsewhere: either the marker is wrong, or an agent could use the human's signing key. The pre-commit and commit-msg stages run before the signature exists: there, a change that will need a signature gets a warning when git is not set to sign it with an allowed key (commit.gpgsign, gpg.format, user.signingkey; a hook cannot see git commit -S); pre-push and CI decide. Fix: sign the commit (git commit --amend -S; git rebase -f -S BASE re-signs a branch), commit with the e-mail the key is allowed for, or add the key to the allowed-signers file in a signed commit of its own that reaches the base branch first.`,
		SeesExcluded: true,
		Leaves:       []*rules.Rule{ownership},
		Run: func(pass *rules.Pass) error {
			switch pass.Unit.Mode {
			case changes.ModeStaged:
				warnUnready(pass, ownership)
			case changes.ModeRange:
				reportDisputed(pass)
				reportUnsigned(pass, ownership)
			}
			return nil
		},
	}
}

// needingSignature returns the changes of the unit that signatures.require
// says only a signed commit may make: every human-owned file it writes
// itself and, with require: human, its first governed or policy file
// when it has no human-owned one. An agent's commit needs none: it is no
// human's, and small/ownership (ownership) refuses what it must not touch
// (unless that rule is turned off and the change is human-owned).
func needingSignature(pass *rules.Pass, ownership *rules.Rule) []changes.Change {
	require := pass.Config.Signatures.Require
	if require == "off" || require == "" {
		return nil
	}
	if pass.Actor.Actor == actor.Agent && !pass.Actor.Pending && (require == "human" || pass.Reports(ownership)) {
		return nil
	}
	var out []changes.Change
	var first *changes.Change
	for i, ch := range pass.Unit.Changes {
		switch {
		case rules.FromParent(ch):
		case small.HumanOwned(pass.Config, ch):
			out = append(out, ch)
		case first == nil && (small.PolicyFile(pass.Config, ch.Path) || governed(ch) && !ch.Place.Folded && !pass.Config.Excluded(ch.Path)):
			first = &pass.Unit.Changes[i]
		}
	}
	if len(out) == 0 && first != nil && require == "human" {
		out = append(out, *first)
	}
	return out
}

// why says why a change needs a signature, for messages.
func why(pass *rules.Pass, ch changes.Change) string {
	if small.HumanOwned(pass.Config, ch) {
		return rules.Verb(ch) + " human-owned " + ch.Path
	}
	return "is " + string(pass.Actor.Actor) + " (" + pass.Actor.Evidence + ") and " + rules.Verb(ch) + " " + ch.Path
}

// keyFiles names the configured key files for messages.
func keyFiles(cfg *config.Config) string {
	var files []string
	for _, f := range []string{cfg.Signatures.AllowedSigners, cfg.Signatures.OpenPGPKeys} {
		if f != "" {
			files = append(files, f)
		}
	}
	return strings.Join(files, " or ")
}

// reportUnsigned reports each change that needs a signature the commit
// does not validly carry.
func reportUnsigned(pass *rules.Pass, ownership *rules.Rule) {
	st := pass.Actor.Signature
	if st == nil || st.Verdict == signature.Valid {
		return
	}
	for _, ch := range needingSignature(pass, ownership) {
		pass.Report(ch.Path, 0, "%s %s without a valid signature by a key allowed for its committer %s (signatures.require: %s): %s",
			pass.CommitName(), why(pass, ch), pass.Unit.Commit.Committer.Email, pass.Config.Signatures.Require, st).
			Hint("a human signs such a commit with a key listed for that e-mail in %s (git commit -S; git rebase -f -S BASE re-signs a branch), and a key added to that file counts once a signed commit has brought it to the base branch", keyFiles(pass.Config))
	}
}

// reportDisputed reports a commit that a valid signature proves human
// while it carries evidence of an agent: an error for each human-owned
// file it writes, else a warning on its first governed or policy file.
func reportDisputed(pass *rules.Pass) {
	if pass.Actor.Disputed == "" {
		return
	}
	report := func(sev rules.Severity, ch changes.Change) {
		human := "remove the agent's marker"
		if pass.Actor.Pusher != "" {
			human = "push it from a human's account (the agent account " + pass.Actor.Pusher + " pushed it)"
		}
		pass.ReportSeverity(sev, ch.Path, 0, "%s is signed (%s) but carries evidence of an agent (%s)",
			pass.CommitName(), pass.Actor.Signature, pass.Actor.Disputed).
			Hint("the signature makes it a human's change, so the ownership rules do not refuse it; if the human made it, %s, and if an agent made it, the agent can sign with the human's key: keep signing keys where agents cannot use them (a passphrase, a hardware key that needs a touch)", human)
	}
	var first *changes.Change
	owned := false
	for i, ch := range pass.Unit.Changes {
		switch {
		case rules.FromParent(ch):
		case small.HumanOwned(pass.Config, ch):
			owned = true
			report(rules.Error, ch)
		case first == nil && (small.PolicyFile(pass.Config, ch.Path) || governed(ch) && !pass.Config.Excluded(ch.Path)):
			first = &pass.Unit.Changes[i]
		}
	}
	if !owned && first != nil {
		report(rules.Warning, *first)
	}
}

// warnUnready warns, before the commit exists, when the staged change will
// need a signature and git is not set to make one the policy accepts.
func warnUnready(pass *rules.Pass, ownership *rules.Rule) {
	r := pass.Actor.Readiness
	if r == nil || r.Signed {
		return
	}
	need := needingSignature(pass, ownership)
	if len(need) == 0 {
		return
	}
	ch := need[0]
	pass.ReportSeverity(rules.Warning, ch.Path, 0, "%s %s and signatures.require is %s", pass.CommitName(), why(pass, ch), pass.Config.Signatures.Require).
		Hint("the pre-push and CI checks will refuse it unless a key allowed for the committer e-mail in %s signs it, and git is not set to: %s (a hook cannot see git commit -S; set commit.gpgsign)",
			keyFiles(pass.Config), r.Advice)
}
