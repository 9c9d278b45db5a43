package small

import (
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

func parseRule() *rules.Rule {
	return &rules.Rule{
		ID:           "small/parse",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `SMALL artifacts must be YAML mappings
A canonical file under .small/ must be valid UTF-8 YAML, hold exactly one document whose top level is a mapping, and have no duplicate keys. A symbolic link or a submodule where an artifact should be is reported too: small-hook never follows links. Fix the file at the line named; tools that write SMALL files never produce these errors.`,
		Run: func(pass *rules.Pass) error {
			return canonicalChanges(pass, func(ch *changes.Change, name string) error {
				if name == Progress {
					if v := viewProgress(pass, ch); v.appendOnly {
						return nil
					}
				}
				if f := decode(pass, ch.New); f.err != nil {
					pass.Report(ch.Path, f.line, "%s %s", ch.Path, f.err)
				}
				return nil
			})
		},
	}
}
