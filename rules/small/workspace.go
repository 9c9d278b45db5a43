package small

import (
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/rules"
)

func layoutRule() *rules.Rule {
	return &rules.Rule{
		ID:       "small/layout",
		Severity: rules.Error,
		Doc: `Only the canonical files live under .small/
SMALL's strict layout boundary: under .small/ only intent, constraints, plan, progress, handoff and workspace .small.yml are allowed, plus extensions under .small/ext/ (which the spec permits). Anything else — backups, logs, caches — belongs elsewhere (.small-cache/ for operational data). In staged and range modes only added or changed paths are judged; with --all every file.`,
		Run: func(pass *rules.Pass) error {
			for _, ch := range pass.Unit.Changes {
				if ch.New == nil || !inWorkspace(ch.Path) || schemaName(ch.Path) != "" || strings.HasPrefix(ch.Path, Dir+"ext/") {
					continue
				}
				pass.Report(ch.Path, 0, "%s is not a SMALL artifact: only the six canonical files and .small/ext/ may live under .small/; move it out (operational data belongs in .small-cache/)", ch.Path)
			}
			return nil
		},
	}
}

func requiredRule() *rules.Rule {
	return &rules.Rule{
		ID:       "small/required",
		Severity: rules.Error,
		Doc: `A SMALL workspace has all five canonical artifacts
When .small/ exists it must hold intent, constraints, plan, progress and handoff .small.yml. Judged whenever a change touches .small/ (and always with --all): deleting one of them, or starting a workspace without all of them, is reported. Restore the file, or create it with the small CLI.`,
		Run: func(pass *rules.Pass) error {
			if pass.Unit.Mode != gitdiff.ModeTree && !touchesWorkspace(pass.Unit) {
				return nil
			}
			present := map[string]bool{}
			any := false
			for _, p := range pass.Unit.Files.Paths() {
				if inWorkspace(p) {
					present[p], any = true, true
				}
			}
			if !any {
				return nil
			}
			for _, p := range requiredFiles() {
				if !present[p] {
					pass.Report(p, 0, "%s is missing: a SMALL workspace needs intent, constraints, plan, progress and handoff; restore it (git restore --staged --worktree %s) or create it with the small CLI", p, p)
				}
			}
			return nil
		},
	}
}
