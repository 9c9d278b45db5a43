package smp

import (
	"fmt"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/workspace"
	"github.com/small-hook/small-hook/rules"
)

// markerName is the marker's name in a workspace's .awp/ directory.
const markerName = "workspace.json"

func undeclaredRule() *rules.Rule {
	return &rules.Rule{
		ID:       "smp/undeclared",
		Severity: rules.Error,
		Doc: `A governed workspace or artifact stays governed
small-hook governs what declares itself: an AWP workspace by its .awp/workspace.json, a knowledge artifact outside any workspace by its frontmatter (type: knowledge-artifact, smp: …), a SMALL workspace by its canonical files. What was declared stays governed — in the trusted revision (the base branch, or HEAD for a commit), before or after the change, or in an earlier commit of the range — so deleting the marker, moving the workspace or stripping an artifact's frontmatter does not take its files out of the check: they are judged as before, and the removal itself is reported here. Only a human retires governed state, on purpose, as a human rewrites history (rules.Pass.ReportRewrite): a human commit with the trailer Small-Rewrite: <reason> and no agent marker makes the finding a warning; an agent's removal is an error. (Deleting or moving a SMALL workspace deletes its progress, which small/append-only reports.) Restore the marker or the frontmatter.`,
		Continuity: true,
		Run: func(pass *rules.Pass) error {
			for _, ch := range pass.Unit.Changes {
				p := ch.Place
				switch {
				case p.Area == workspace.Private && !p.Folded && p.Rel == markerName && ch.Old != nil && ch.New == nil:
					pass.ReportRewrite(ch.Path, 0,
						fmt.Sprintf("%s was deleted (or moved): %s stays an AWP workspace whose artifacts are judged as before", ch.Path, rootName(p.Workspace)),
						keep(pass.Unit.Mode, "restore it (git restore --staged --worktree "+ch.Path+")"))
				case p.Undeclared:
					pass.ReportRewrite(ch.Path, 0,
						ch.Path+" no longer declares itself a knowledge artifact (its frontmatter has neither type: knowledge-artifact nor an smp: other than false or null), but the file stays governed and later changes to it are judged as an artifact's",
						keep(pass.Unit.Mode, "put its SMP frontmatter back and stage it"))
				}
			}
			return nil
		},
	}
}

// keep says how to keep a declaration: in the staged change, with fix;
// in a commit of a range, or in a pushed tip, by a branch that never
// removes it (a later commit that restores it does not undo the removal).
func keep(mode changes.Mode, fix string) string {
	switch mode {
	case changes.ModeStaged:
		return fix
	case changes.ModeTip:
		return "push a branch that keeps it"
	}
	return "keep it in every commit: rewrite the branch without this change (a later commit that restores it does not undo it)"
}

// rootName names a workspace's root directory for messages.
func rootName(w workspace.Workspace) string {
	if w.Root == "" {
		return "the repository root"
	}
	return w.Root
}
