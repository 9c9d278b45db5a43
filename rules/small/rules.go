// Package small holds the rules of the SMALL family, for SMALL protocol
// v1.0.0 workspaces: the five canonical .small/*.small.yml artifacts and
// workspace.small.yml of every SMALL workspace in the repository (the
// root's and nested ones), and who may change them. Each rule small/<name>
// is in <name>.go; the other files hold what the rules share: files.go
// (the canonical files and the ownership table, decoding), progress.go
// and entries.go (what a change adds to progress), history.go (aligning
// old entries with new ones, as append-only and the ledger do),
// entryindex.go (the index of the new entries it aligns through), align.go
// (the ledger's entry to it), orphanfix.go (the reference CLI's repair
// small fix --orphan-progress, recognised exactly, for append-only's
// message and the ledger), mergeview.go (the fast view of a merge of two
// appends), names.go (how messages name entries and values) and rebase.go
// (the advice for progress a rebase put out of order).
package small

import (
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/parallel"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/schemas"
)

// Rules returns the rules that judge the canonical files, freshly built:
// they share one schema set.
func Rules() []*rules.Rule {
	schema := schemaRule(schemas.New())
	return []*rules.Rule{
		parseRule(),
		schema,
		versionRule(),
		layoutRule(),
		requiredRule(),
		appendOnlyRule(),
		evidenceRule(),
		timestampRule(schema),
		handoffRule(),
		replayIDRule(),
	}
}

// OwnershipRules returns the rules that judge who changed a file of the
// ownership table, freshly built: small/ownership, which the attribution
// rules leave what it reports to, and small/human-edit. The registry
// lists them with the attribution rules.
func OwnershipRules() (ownership, humanEdit *rules.Rule) {
	return ownershipRule(), humanEditRule()
}

// canonicalChanges calls f for every change that holds a new version of a
// canonical file of any workspace, with the file's name.
func canonicalChanges(pass *rules.Pass, f func(ch *changes.Change, name string) error) error {
	decodedUnits.Get(pass, pass.Unit)
	for i := range pass.Unit.Changes {
		ch := &pass.Unit.Changes[i]
		name := canonical(ch)
		if ch.New == nil || name == "" {
			continue
		}
		if err := f(ch, name); err != nil {
			return err
		}
	}
	return nil
}

// decodedUnits is the fact that every canonical file a unit changes has
// been worked out, all at once, on every processor: what a change to a
// progress file adds (see viewProgress), and every other new version
// decoded. The rules then find them in the cache; a unit of thousands of
// workspaces would otherwise be decoded on one goroutine.
var decodedUnits = rules.NewFact(
	func(u *changes.Unit) any { return u },
	func(pass *rules.Pass, u *changes.Unit) bool {
		parallel.Each(len(u.Changes), func(i int) {
			ch := &u.Changes[i]
			switch name := canonical(ch); {
			case ch.New == nil || name == "":
			case name == Progress:
				viewProgress(pass, ch)
			default:
				decode(pass, ch.New)
			}
		})
		return true
	})
