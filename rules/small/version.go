package small

import (
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

func versionRule() *rules.Rule {
	return &rules.Rule{
		ID:           "small/version",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `small_version must be exactly the string "1.0.0"
SMALL invariant 5: every artifact carries small_version "1.0.0", an exact string match; a version mismatch must fail validation. An unquoted 1.0 is a number and "1.0" is another version. Write small_version: "1.0.0".`,
		Run: func(pass *rules.Pass) error {
			return canonicalChanges(pass, func(ch *changes.Change, name string) error {
				if name == Progress && viewProgress(pass, ch).appendOnly {
					return nil
				}
				f := decode(pass, ch.New)
				if f.err != nil {
					return nil
				}
				v, ok := f.top["small_version"]
				switch {
				case !ok:
					pass.Report(ch.Path, 1, "small_version is missing").Hint(`add small_version: "1.0.0"`)
				case v != "1.0.0":
					pass.Report(ch.Path, f.doc.Line("small_version"), `small_version is %s, not the string "1.0.0"`, show(v)).Hint(`write small_version: "1.0.0"`)
				}
				return nil
			})
		},
	}
}
