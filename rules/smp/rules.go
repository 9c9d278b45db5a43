package smp

import (
	"fmt"
	"math/big"
	"regexp"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/schemas"
	"github.com/small-hook/small-hook/yamldoc"
)

// Rules returns the SMP rules, freshly built.
func Rules() []*rules.Rule {
	id := idRule()
	appendOnly := appendOnlyRule()
	schema := schemaRule(schemas.New(), id)
	provenance := provenanceRule(appendOnly)
	return []*rules.Rule{
		parseRule(),
		schema,
		id,
		appendOnly,
		versionRule(schema, appendOnly),
		provenance,
		unrecordedRule(unrecordedLeaves{appendOnly: appendOnly, id: id, provenance: provenance}),
		mergeRule(appendOnly),
		attributionRule(appendOnly),
	}
}

func parseRule() *rules.Rule {
	return &rules.Rule{
		ID:       "smp/parse",
		Severity: rules.Error,
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

func schemaRule(set *schemas.Set, id *rules.Rule) *rules.Rule {
	return &rules.Rule{
		ID:       "smp/schema",
		Severity: rules.Error,
		Doc: `Knowledge artifact frontmatter matches its schema
The frontmatter is validated against schemas/knowledge-artifact.schema.json: required awp, smp, type, id, title, authors, version, created and provenance; version an integer of at least 1 (3.0 is the integer 3; 3.5 is reported); confidence between 0 and 1; provenance entries with agent, action (created, updated, merged, synced) and timestamp. One finding per violation, with its JSON pointer. An id that is a string is judged by smp/id.`,
		Leaves: []*rules.Rule{id},
		Run: func(pass *rules.Pass) error {
			var err error
			eachArtifact(pass, func(v versions) {
				if err != nil {
					return
				}
				var violations []schemas.Violation
				violations, err = set.Validate("knowledge-artifact", "", v.cur.top)
				_, idIsString := v.cur.top["id"].(string)
				for _, x := range violations {
					if x.Pointer() == "/id" && idIsString && pass.Reports(id) {
						continue
					}
					pass.Report(v.path, v.cur.doc.Line(x.Path...), "%s: %s", x.Pointer(), clipWords(x.Explain(v.cur.doc.Node(x.Path...))))
				}
			})
			return err
		},
	}
}

// clipWords bounds every long run of non-blank characters in a message
// that may repeat values from the file (a schema validator's messages do).
func clipWords(msg string) string {
	words := strings.Split(msg, " ")
	for i, w := range words {
		words[i] = clip(w, 2*valueLength)
	}
	return clip(strings.Join(words, " "), 8*valueLength)
}

// slugPattern is SMP's slug: the file name of artifacts/<slug>.md and the
// part of the id after artifact:.
func slugPattern() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`) }

func idRule() *rules.Rule {
	valid := slugPattern()
	return &rules.Rule{
		ID:       "smp/id",
		Severity: rules.Error,
		Doc: `An artifact's id matches its file name and never changes
SMP: the slug (lower-case letters, digits and dashes) doubles as the file name, artifacts/<slug>.md holds id artifact:<slug>, and an artifact keeps its id for life; renaming an artifact means creating a new one. One finding per artifact, the first that applies: a file name that is not a slug, an id that changed, an id that does not match the file name. A missing id, or one that is not a string, is reported by smp/schema.`,
		Continuity: true,
		Run: func(pass *rules.Pass) error {
			eachArtifact(pass, func(v versions) {
				id, ok := v.cur.top["id"].(string)
				if !ok {
					return
				}
				line := v.cur.doc.Line("id")
				name := slug(v.path)
				want := "artifact:" + name
				oldID := ""
				if v.old != nil {
					oldID, _ = v.old.top["id"].(string)
				}
				switch {
				case !valid.MatchString(name):
					pass.Report(v.path, line, "the file name %s is not an SMP slug (lower-case letters, digits and dashes)", shown(name+".md")).
						Hint("rename the file to artifacts/<slug>.md with id artifact:<slug>; on a case-insensitive file system a name that differs only in case is the same file")
				case oldID != "" && oldID != id:
					pass.Report(v.path, line, "id changed from %s to %s", shown(oldID), shown(id)).
						Hint("an artifact keeps its id for life; restore id: %s (a renamed artifact is a new artifact)", shown(oldID))
				case id != want:
					pass.Report(v.path, line, "id is %s but the file is %s", shown(id), v.path).Hint("the id must be %s", shown(want))
				}
			})
			return nil
		},
	}
}

func appendOnlyRule() *rules.Rule {
	return &rules.Rule{
		ID:       "smp/append-only",
		Severity: rules.Error,
		Doc: `Provenance is append-only and artifacts are not deleted
SMP: provenance entries must not be modified or deleted. Compared with the previous version, every provenance entry must still be there, unchanged and in order, and created must not change; a merge commit keeps the merge base's entries as a prefix and every parent's entries in their order. Deleting or renaming an artifact is reported too. Values are compared, not text, so awp's requoting and folding are fine. awp sync pull replaces a trailing synced entry on a fast-forward: that is reported as well, as an error unless smp.sync-replace: warning is set in .small-hook.yml. A rewrite of history is reported once per artifact, here: the version, provenance and unrecorded-change rules do not repeat its consequences. Restore the entry and record the change as a new entry. A human who rewrites or retires an artifact on purpose (git rm artifacts/old.md) commits it with the trailer Small-Rewrite: <reason> and no agent marker: it is then a warning that records the reason. The source of a merge is kept whoever deletes it: SMP leaves a merge's source in place, and an artifact whose body records a merge from it must be able to name it.`,
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

func versionRule(schema, appendOnly *rules.Rule) *rules.Rule {
	return &rules.Rule{
		ID:       "smp/version",
		Severity: rules.Error,
		Doc: `The version counter rises by one per recorded change
SMP: version starts at 1 and every update or merge increments it by 1. The version is judged by its value, however it is spelled (3, 3.0 and 3e0 are 3; a version that is not an integer is reported by smp/schema). Compared with the previous version, version must rise by exactly the number of new updated and merged provenance entries (a new synced entry may raise it by one or not: awp sync does both), and never go down. A merge commit's version follows from its parents the same way: from at least one parent, by the entries the merge adds to that parent. A new artifact's version is at least the number of its created, updated and merged entries.`,
		Continuity: true,
		Leaves:     []*rules.Rule{schema, appendOnly},
		Run: func(pass *rules.Pass) error {
			eachArtifact(pass, func(v versions) {
				cur, ok := v.cur.version()
				if !ok || cur.Sign() <= 0 && pass.Reports(schema) || rewritesHistory(pass, appendOnly, v) {
					return // smp/schema or smp/append-only reports it
				}
				line := v.cur.doc.Line("version")
				prevs := previous(pass, v)
				if len(prevs) == 0 {
					if n := countActions(v.cur.provenance(), "created", "updated", "merged"); cur.Cmp(big.NewInt(int64(n))) < 0 {
						pass.Report(v.path, line, "version %s is below the %d created, updated and merged provenance entries", v.cur.written("version"), n).
							Hint("each of them raised the version by one; set version to %d", n)
					}
					return
				}
				var complaint, hint string
				for pi, prev := range prevs {
					old, ok := prev.version()
					if !ok {
						return // the earlier version was reported when it was made
					}
					bumps, syncs := newActions(v.cur.provenance(), prev.provenance())
					rise := new(big.Int).Sub(cur, old)
					if rise.Cmp(big.NewInt(int64(bumps))) >= 0 && rise.Cmp(big.NewInt(int64(bumps+syncs))) <= 0 {
						return
					}
					if pi == 0 {
						complaint, hint = versionComplaint(v, prev, cur, old, rise, bumps)
					}
				}
				pass.Report(v.path, line, "%s", complaint).Hint("%s", hint)
			})
			return nil
		},
	}
}

// versionComplaint says how version cur fails to follow from prev's version
// old with bumps new updated and merged entries, and how to fix it.
func versionComplaint(v versions, prev *artifact, cur, old, rise *big.Int, bumps int) (msg, hint string) {
	want := new(big.Int).Add(old, big.NewInt(int64(bumps)))
	written := v.cur.written("version")
	if v.change.Merge != nil {
		return fmt.Sprintf("version %s of the merge does not follow from its parents", written),
			fmt.Sprintf("the first parent has version %s and the merge brings it %d updated/merged provenance entries; each recorded change raises the version by exactly one: set version to %s",
				prev.written("version"), bumps, want)
	}
	if rise.Sign() < 0 {
		return fmt.Sprintf("version went down from %s to %s", prev.written("version"), written), fmt.Sprintf("versions only rise; set version to %s", want)
	}
	return fmt.Sprintf("version rose by %s (%s to %s) but %d updated/merged provenance entries were added", rise, prev.written("version"), written, bumps),
		fmt.Sprintf("each recorded change raises the version by exactly one; set version to %s", want)
}

// newActions counts the entries of cur that old does not hold (each old
// entry accounts for one equal entry of cur) by what they do to the
// version: updated and merged entries raise it, synced entries may.
func newActions(cur, old []any) (bumps, syncs int) {
	used := make([]bool, len(cur))
	for _, o := range old {
		for i, c := range cur {
			if !used[i] && yamldoc.Equal(o, c) {
				used[i] = true
				break
			}
		}
	}
	for i, c := range cur {
		if used[i] {
			continue
		}
		switch action(c) {
		case "updated", "merged":
			bumps++
		case "synced":
			syncs++
		}
	}
	return bumps, syncs
}

func countActions(entries []any, actions ...string) int {
	n := 0
	for _, e := range entries {
		for _, a := range actions {
			if action(e) == a {
				n++
			}
		}
	}
	return n
}
