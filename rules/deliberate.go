package rules

import (
	"fmt"

	"github.com/small-hook/small-hook/attribution"
)

// Deliberate returns the severity of a change to governed state that only
// a human may make, and only on purpose (retiring what declares a
// workspace or an artifact), and the note to add to its message: a
// warning for a human commit that gives the reason in the trailer
// Small-Rewrite: <reason>, or for the pre-commit stage when
// SMALL_HOOK_REWRITE is set (the commit-msg stage then decides); an error
// otherwise.
func (p *Pass) Deliberate() (Severity, string) {
	a := p.Actor
	switch {
	case a.Rewrite == "":
		return Error, " (only a human may do this, on purpose: commit it with the trailer Small-Rewrite: <reason>)"
	case a.Pending:
		return Warning, fmt.Sprintf(" [on purpose, SMALL_HOOK_REWRITE=%s: the commit-msg stage decides; only a human commit with the trailer Small-Rewrite may do this]", a.Rewrite)
	case a.Actor == attribution.Human:
		return Warning, fmt.Sprintf(" [on purpose, by a human commit (%s), Small-Rewrite: %s]", a.Evidence, a.Rewrite)
	}
	return Error, fmt.Sprintf(" [Small-Rewrite: %s is not enough: only a human commit may do this, and this one is %s (%s)]", a.Rewrite, a.Actor, a.Evidence)
}
