package smp

import (
	"fmt"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

func appendOnlyRule() *rules.Rule {
	return &rules.Rule{
		ID:           "smp/append-only",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `Provenance is append-only and artifacts are not deleted
SMP: provenance entries must not be modified or deleted. Compared with the previous version, every provenance entry must still be there, unchanged and in order, and created must not change; a merge commit keeps the merge base's entries as a prefix and every parent's entries in their order; a push that rewrites a branch keeps every entry its previous tip held, in order, with nothing between them on the default and protected branches and, elsewhere, only entries the default branch holds (a rebase onto it). Deleting or renaming an artifact is reported too. Values are compared, not text, so awp's requoting and folding are fine. awp sync pull replaces a trailing synced entry on a fast-forward: that is reported as well, as an error unless smp.sync-replace: warning is set in .small-hook.yml. A rewrite of history is reported once per artifact, here: the version, provenance and unrecorded-change rules do not repeat its consequences. Restore the entry and record the change as a new entry. A human who rewrites or retires an artifact on purpose (git rm artifacts/old.md) commits it with the trailer Small-Rewrite: <reason> and no agent marker: it is then a warning that records the reason. The source of a merge is kept whoever deletes it: SMP leaves a merge's source in place, and an artifact whose body records a merge from it must be able to name it.`,
		Continuity: true,
		Run: func(pass *rules.Pass) error {
			for i := range pass.Unit.Changes {
				ch := &pass.Unit.Changes[i]
				if !isArtifact(ch) || ch.New != nil || ch.Old == nil {
					continue
				}
				by, err := mergedFrom(pass, ch)
				if err != nil {
					return err
				}
				if by != "" {
					pass.Report(ch.Path, 0, "%s was deleted (or renamed), but %s records a merge from it", ch.Path, clip(by, 3*valueLength)).
						Hint("SMP leaves the source of a merge in place, so that the merge can be traced, whoever deletes it; restore it (%s)", restoreCommand(pass, ch.Path))
					continue
				}
				pass.ReportRewrite(ch.Path, 0, ch.Path+" was deleted (or renamed): a knowledge artifact's history is kept", "restore it ("+restoreCommand(pass, ch.Path)+"), and merge or supersede it with a new artifact instead")
			}
			eachArtifact(pass, func(v versions) {
				var msgs, undo []string
				line := 0
				for _, r := range rewrites(pass, v) {
					if r.syncReplace {
						sev := rules.Error
						if pass.Config.SMP.SyncReplace == "warning" {
							sev = rules.Warning
						}
						pass.ReportSeverity(sev, v.path, r.line, "%s", r.msg).Hint("%s", r.undo)
						continue
					}
					if len(msgs) == 0 {
						line = r.line
					}
					msgs = append(msgs, r.msg)
					if !slices.Contains(undo, r.undo) {
						undo = append(undo, r.undo)
					}
				}
				if len(msgs) > 0 {
					pass.ReportRewrite(v.path, line, v.path+" has append-only provenance, and this change rewrites its history: "+strings.Join(msgs, "; "), strings.Join(undo, "; "))
				}
			})
			return nil
		},
	}
}

// restoreCommand is how to bring a deleted file back: from HEAD in the
// staged stages, from the parent in a new commit in a range.
func restoreCommand(pass *rules.Pass, path string) string {
	if c := pass.Unit.Commit; c != nil && len(c.Parents) > 0 {
		return "git checkout " + c.Parents[0][:min(12, len(c.Parents[0]))] + " -- " + path + ", then commit"
	}
	return "git restore --staged --worktree " + path
}

// mergedFrom returns an artifact of the same workspace, in the state after
// the change, whose body records a merge from the deleted artifact ch (the
// separator line SMP's merge writes), or "".
func mergedFrom(pass *rules.Pass, ch *changes.Change) (string, error) {
	sep := separatorPattern()
	name := slug(ch.Path)
	dir := ch.Place.Workspace.Path("")
	paths, err := pass.Unit.Files.List(dir)
	if err != nil {
		return "", fmt.Errorf("listing %s: %w", dir, err)
	}
	for _, p := range paths {
		if strings.Contains(strings.TrimPrefix(p, dir), "/") || !strings.HasSuffix(p, ".md") {
			continue
		}
		b, err := pass.Unit.Files.Read(p)
		if err != nil {
			return "", fmt.Errorf("reading %s: %w", p, err)
		}
		if b == nil || b.Regular() != nil {
			continue
		}
		a := parse(pass, b)
		if a.err != nil {
			continue
		}
		for _, m := range sep.FindAllStringSubmatch(a.body, -1) {
			if m[1] == name {
				return p, nil
			}
		}
	}
	return "", nil
}
