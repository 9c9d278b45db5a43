package small

import (
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/schemas"
)

// Rules returns the SMALL rules, freshly built: they share one schema set.
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

// canonicalChanges calls f for every change that holds a new version of a
// canonical file of any workspace, with the file's name.
func canonicalChanges(pass *rules.Pass, f func(ch *changes.Change, name string) error) error {
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
