package path

import (
	"github.com/small-hook/small-hook/rules"
)

func foldedRule() *rules.Rule {
	return &rules.Rule{
		ID:       "path/folded",
		Severity: rules.Error,
		Doc: `Governed paths are spelled exactly
On macOS and Windows, .SMALL/intent.small.yml is the same file as .small/intent.small.yml, and so are names that differ only in Unicode normalisation, in code points HFS+ ignores, in trailing dots or spaces, or by a Windows 8.3 short name (SMALL~1). A change that adds or edits such a path would edit a governed file on those machines while every rule judged an ungoverned one. A path whose .small, .awp or artifacts directory is spelled differently from the name it folds to is refused wherever the path it stands for would be governed (see docs/governance.md): .SMALL/intent.small.yml always (a canonical file declares its workspace), Artifacts/x.md when x.md declares itself a knowledge artifact or the directory is an AWP workspace's; a folded spelling of what would not be governed either is left alone. Rename it to the exact governed path (or out of the workspace).`,
		Run: func(pass *rules.Pass) error {
			for _, ch := range pass.Unit.Changes {
				if ch.New == nil || !ch.Place.Folded {
					continue
				}
				pass.Report(ch.Path, 0, "%s stands for %s on case-insensitive or normalising file systems (macOS, Windows)", ch.Path, ch.Place.Canonical).
					Hint("a governed path must be spelled exactly; rename it to %s", ch.Place.Canonical)
			}
			return nil
		},
	}
}
