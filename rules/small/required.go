package small

import (
	"slices"

	"github.com/small-hook/small-hook/rules"
)

func requiredRule() *rules.Rule {
	return &rules.Rule{
		ID:           "small/required",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `A SMALL workspace has all five canonical artifacts
When a .small/ directory exists it must hold intent, constraints, plan, progress and handoff .small.yml. Judged for every workspace a change touches (and for every workspace with --all): deleting one of them, or starting a workspace without all of them, is reported. Restore the file, or create it with the small CLI.`,
		Run: func(pass *rules.Pass) error {
			for _, s := range spaces(pass) {
				if err := checkRequired(s); err != nil {
					return err
				}
			}
			return nil
		},
	}
}

// checkRequired reports the canonical files a workspace lacks, unless the
// workspace is gone as a whole.
func checkRequired(s space) error {
	present, err := s.pass.Unit.Files.List(s.ws.Dir())
	if err != nil || len(present) == 0 {
		return err
	}
	for _, name := range requiredFiles() {
		p := s.path(name)
		if !slices.Contains(present, p) {
			s.pass.Report(p, 0, "%s is missing", p).
				Hint("a SMALL workspace needs intent, constraints, plan, progress and handoff; restore it (git restore --staged --worktree %s) or create it with the small CLI", p)
		}
	}
	return nil
}
