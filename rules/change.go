package rules

import "github.com/small-hook/small-hook/internal/changes"

// FromParent reports a merge commit's change that only takes a parent's
// change: the file as one parent has it, where that parent changed it since
// every merge base. That parent's own commits made the change and are
// judged as themselves. What a merge writes of its own is judged on the
// merge, and so is a result that equals a merge base's version while
// another parent changed the file: that undoes the other parent's change (a
// merge crafted with an old commit as a parent, two parents or more, would
// otherwise revert a human's intent edit unjudged).
func FromParent(ch changes.Change) bool {
	if ch.Merge == nil {
		return false
	}
	same := func(a, b *changes.Blob) bool {
		return (a == nil) == (b == nil) && (a == nil || a.Hash == b.Hash && a.Kind == b.Kind)
	}
	for _, p := range ch.Merge.Parents {
		if !same(p, ch.New) {
			continue
		}
		changed := true
		for _, b := range ch.Merge.AllBases() {
			if same(p, b) {
				changed = false
			}
		}
		if changed {
			return true
		}
	}
	return false
}

// Verb says what a change does to its file, for messages: "adds",
// "deletes" or "edits".
func Verb(ch changes.Change) string {
	switch {
	case ch.Old == nil:
		return "adds"
	case ch.New == nil:
		return "deletes"
	}
	return "edits"
}

// ActorKnown reports whether a rule that needs the unit's actor can judge
// it: not in tree mode (a tree has no change and no author) and not while
// the actor is pending (the commit-msg stage decides).
func (p *Pass) ActorKnown() bool {
	return p.Unit.Mode != changes.ModeTree && !p.Actor.Pending
}

// CommitName names the unit's change for messages: "commit 1a2b3c4d5e6f",
// or "this commit" before the commit exists.
func (p *Pass) CommitName() string {
	if c := p.Unit.Commit; c != nil {
		return "commit " + c.Hash[:min(12, len(c.Hash))]
	}
	return "this commit"
}
