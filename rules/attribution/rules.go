// Package attribution holds the rules of the attribution family, which
// judge who made a change rather than what it holds: attribution/claim (a
// human claim that evidence of an agent contradicts), attribution/unknown
// (a change to agent state that says nothing of who made it) and
// attribution/signature (the signatures that prove a human made a
// change). They leave to small/ownership (rules/small) what it reports,
// and read SMALL's ownership table from there. Each rule is in the file
// named after it; this file lists them and holds what they share.
package attribution

import (
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/workspace"
	"github.com/small-hook/small-hook/rules"
)

// Rules returns the attribution rules, freshly built; ownership is the
// small/ownership rule they leave the commits it reports to.
func Rules(ownership *rules.Rule) []*rules.Rule {
	return []*rules.Rule{claimRule(ownership), unknownRule(), signatureRule(ownership)}
}

// governed reports a change to agent state: a SMALL workspace's files or
// an AWP workspace's artifacts.
func governed(ch changes.Change) bool {
	return ch.Place.Area == workspace.Files || ch.Place.Area == workspace.Artifacts
}
