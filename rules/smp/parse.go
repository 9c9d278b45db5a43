package smp

import "github.com/small-hook/small-hook/rules"

func parseRule() *rules.Rule {
	return &rules.Rule{
		ID:           "smp/parse",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `Knowledge artifacts start with YAML frontmatter
A file artifacts/<slug>.md of an AWP workspace (a directory holding .awp/workspace.json), or one whose frontmatter declares it (type: knowledge-artifact or smp:) in any artifacts/ directory, is a knowledge artifact: its first line is ---, YAML frontmatter follows up to the next --- line, then the Markdown body. The frontmatter must be valid YAML, a mapping, without duplicate keys. A Markdown file in an AWP workspace's artifacts/ is never skipped silently: fix the frontmatter at the line named, or move the file out of artifacts/.`,
		Run: func(pass *rules.Pass) error {
			for i := range pass.Unit.Changes {
				ch := &pass.Unit.Changes[i]
				if !isArtifact(ch) || ch.New == nil {
					continue
				}
				a := parse(pass, ch.New)
				switch {
				case a.err == nil:
				case a.line > 0:
					pass.Report(ch.Path, a.line, "%s: %s", ch.Path, clipWords(a.err.Error())).
						Hint("a knowledge artifact is a line ---, a YAML mapping, a line --- and the Markdown body: fix the frontmatter here, or move the file out of artifacts/")
				default:
					pass.Report(ch.Path, 0, "%s: %s", ch.Path, clipWords(a.err.Error()))
				}
			}
			return nil
		},
	}
}
