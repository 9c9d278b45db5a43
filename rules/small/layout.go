package small

import (
	"strings"

	"github.com/small-hook/small-hook/internal/workspace"
	"github.com/small-hook/small-hook/rules"
)

func layoutRule() *rules.Rule {
	return &rules.Rule{
		ID:           "small/layout",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `Only the canonical files live under .small/
SMALL's strict layout boundary: under a workspace's .small/ only intent, constraints, plan, progress, handoff and workspace .small.yml are allowed, plus extensions under .small/ext/ (which the spec permits). Anything else — backups, logs, caches — belongs elsewhere (.small-cache/ for operational data); the runtime layout releases before v1.0.8 wrote inside .small/ (archive/, runs/) is moved out by small fix --runtime-layout. Every workspace is judged, nested ones included. In staged and range modes only added or changed paths are judged; with --all every file.`,
		Run: func(pass *rules.Pass) error {
			for _, ch := range pass.Unit.Changes {
				p := ch.Place
				if ch.New == nil || p.Area != workspace.Files || p.Folded || schemaName(p.Rel) != "" || strings.HasPrefix(p.Rel, "ext/") {
					continue
				}
				if legacyRuntime(p.Rel) {
					pass.Report(ch.Path, 0, "%s is in the runtime layout older small releases wrote (.small/archive/, .small/runs/)", ch.Path).
						Hint("run `small fix --runtime-layout`, which moves it to .small-archive/ and .small-runs/, and commit the result")
					continue
				}
				pass.Report(ch.Path, 0, "%s is not a SMALL artifact", ch.Path).
					Hint("only the six canonical files and %sext/ may live under %s; move it out (operational data belongs in .small-cache/)", p.Workspace.Dir(), p.Workspace.Dir())
			}
			return nil
		},
	}
}

// legacyRuntime reports a path of the runtime layout that small releases
// before v1.0.8 wrote inside .small/.
func legacyRuntime(rel string) bool {
	return strings.HasPrefix(rel, "archive/") || strings.HasPrefix(rel, "runs/")
}
