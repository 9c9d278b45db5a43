package small

import (
	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/schemas"
)

// Rules returns the SMALL rules, freshly built: they share one schema set.
func Rules() []*rules.Rule {
	set := schemas.New()
	return []*rules.Rule{
		parseRule(),
		schemaRule(set),
		versionRule(),
		layoutRule(),
		requiredRule(),
		appendOnlyRule(),
		evidenceRule(),
		timestampRule(),
		handoffRule(),
		replayIDRule(),
	}
}

// canonicalChanges calls f for every change that holds a new version of a
// canonical file.
func canonicalChanges(pass *rules.Pass, f func(ch *gitdiff.Change) error) error {
	for i := range pass.Unit.Changes {
		ch := &pass.Unit.Changes[i]
		if ch.New == nil || schemaName(ch.Path) == "" {
			continue
		}
		if err := f(ch); err != nil {
			return err
		}
	}
	return nil
}
