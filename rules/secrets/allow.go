package secrets

import (
	"bytes"
	"fmt"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	leaks "github.com/small-hook/small-hook/internal/secrets"
	"github.com/small-hook/small-hook/rules"
)

// allowMarker on a line marks what gitleaks finds there a false positive.
const allowMarker = "gitleaks:allow"

// allowance is what a gitleaks:allow marker on a finding's lines does.
type allowance int

const (
	// unmarked: no marker, the finding is reported.
	unmarked allowance = iota
	// allowed: a marker that counts; the finding is dropped.
	allowed
	// untrusted: a marker the judged change wrote, not a human's commit;
	// the finding is reported, and says why the marker does not count.
	untrusted
	// undecided: a marker the judged change wrote, in the pre-commit
	// stage, before the commit says who made it.
	undecided
)

// allowanceOf judges the gitleaks:allow markers on the file lines a
// finding covers. A marker is part of the content, so the judged change
// could write one to silence its own leak: by the trust roots, it counts
// when its line already stands in the version the change starts from (a
// parent, for a merge), when a human's commit, with no evidence of an
// agent on it, wrote it, and in a tree (--all), which has no change.
func allowanceOf(pass *rules.Pass, ch changes.Change, f leaks.Finding) (allowance, int) {
	line := markedLine(ch, f)
	a := pass.Actor
	switch {
	case line == 0:
		return unmarked, 0
	case pass.Unit.Mode == changes.ModeTree || inOldVersion(ch, line):
		return allowed, line
	case a.Pending:
		return undecided, line
	case a.Actor == attribution.Human && a.Disputed == "":
		return allowed, line
	}
	return untrusted, line
}

// markedLine returns the line, among those a finding covers, that
// carries gitleaks:allow and stands in the old version, else the first
// that carries it, else 0.
func markedLine(ch changes.Change, f leaks.Finding) int {
	if f.Line == 0 || !bytes.Contains(ch.New.Data, []byte(allowMarker)) {
		return 0
	}
	first := 0
	for n := f.Line; n <= max(f.Line, f.EndLine); n++ {
		if !bytes.Contains(lineAt(ch.New.Data, n), []byte(allowMarker)) {
			continue
		}
		if inOldVersion(ch, n) {
			return n
		}
		if first == 0 {
			first = n
		}
	}
	return first
}

// reportSecret reports a finding of a change, as its gitleaks:allow
// marker, if any, decides (see allowanceOf).
func reportSecret(pass *rules.Pass, ch changes.Change, f leaks.Finding, commit string) {
	what := message(f, ch.New.Kind, commit)
	id := reportedID(f.RuleID)
	switch allow, line := allowanceOf(pass, ch, f); allow {
	case allowed:
	case undecided:
		if pass.Actor.Deferred() {
			return // the commit-msg stage knows who wrote the marker
		}
		pass.ReportAs(id, rules.Warning, f.Path, f.Line, "%s; the gitleaks:allow on line %d is new in this change, and counts only if a human's commit writes it: the pre-push and CI checks decide", what, line).
			Hint("%s", untrustedHint)
	case untrusted:
		pass.ReportAs(id, rules.Error, f.Path, f.Line, "%s; the gitleaks:allow on line %d does not count: %s wrote it, %s", what, line, pass.CommitName(), writer(pass.Actor)).
			Hint("%s", untrustedHint)
	default:
		pass.ReportAs(id, rules.Error, f.Path, f.Line, "%s", what).Hint("%s", secretHint(commit))
	}
}

// writer says who made a change whose marker does not count.
func writer(a attribution.Verdict) string {
	switch {
	case a.Disputed != "":
		return fmt.Sprintf("which carries evidence of an agent (%s)", a.Disputed)
	case a.Actor == attribution.Agent:
		return fmt.Sprintf("an agent's commit (%s)", a.Evidence)
	}
	return fmt.Sprintf("whose author is not known (%s)", a.Evidence)
}

// untrustedHint says what to do about a secret whose gitleaks:allow
// marker the judged change wrote.
const untrustedHint = "a gitleaks:allow marker counts only when a human's commit writes it or it was there before the change, so that an agent cannot silence its own leak; remove the secret and rotate the credential, or, if it is a false positive, a human commits the change (without an agent's markers), or commits its fingerprint to .gitleaksignore first"
