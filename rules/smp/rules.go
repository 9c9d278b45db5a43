package smp

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/schemas"
	"github.com/small-hook/small-hook/yamldoc"
)

// Rules returns the SMP rules, freshly built.
func Rules() []*rules.Rule {
	set := schemas.New()
	return []*rules.Rule{
		parseRule(),
		schemaRule(set),
		idRule(),
		appendOnlyRule(),
		versionRule(),
		provenanceRule(),
		unrecordedRule(),
		mergeRule(),
	}
}

func parseRule() *rules.Rule {
	return &rules.Rule{
		ID:       "smp/parse",
		Severity: rules.Error,
		Doc: `Knowledge artifacts start with YAML frontmatter
A file artifacts/<slug>.md is a knowledge artifact: its first line is ---, YAML frontmatter follows up to the next --- line, then the Markdown body. The frontmatter must be valid YAML, a mapping, without duplicate keys. A file under artifacts/ is never skipped silently: fix the frontmatter at the line named, or move the file out of artifacts/.`,
		Run: func(pass *rules.Pass) error {
			for i := range pass.Unit.Changes {
				ch := &pass.Unit.Changes[i]
				if !isArtifact(ch) || ch.New == nil {
					continue
				}
				if a := parse(pass, ch.New); a.err != nil {
					pass.Report(ch.Path, a.line, "%s: %s", ch.Path, a.err)
				}
			}
			return nil
		},
	}
}

func schemaRule(set *schemas.Set) *rules.Rule {
	return &rules.Rule{
		ID:       "smp/schema",
		Severity: rules.Error,
		Doc: `Knowledge artifact frontmatter matches its schema
The frontmatter is validated against schemas/knowledge-artifact.schema.json: required awp, smp, type, id, title, authors, version, created and provenance; id artifact:<slug>; version an integer of at least 1; confidence between 0 and 1; provenance entries with agent, action (created, updated, merged, synced) and timestamp. One finding per violation, with its JSON pointer.`,
		Run: func(pass *rules.Pass) error {
			var err error
			eachArtifact(pass, func(v versions) {
				if err != nil {
					return
				}
				var violations []schemas.Violation
				violations, err = set.Validate("knowledge-artifact", "", v.cur.top)
				for _, x := range violations {
					pass.Report(v.path, v.cur.doc.Line(x.Path...), "%s: %s", x.Pointer(), x.Message)
				}
			})
			return err
		},
	}
}

func idRule() *rules.Rule {
	return &rules.Rule{
		ID:       "smp/id",
		Severity: rules.Error,
		Doc: `An artifact's id matches its file name and never changes
SMP: the slug doubles as the file name, artifacts/<slug>.md holds id artifact:<slug>, and an artifact keeps its id for life. Renaming an artifact means creating a new one. A missing id is reported by smp/schema.`,
		Continuity: true,
		Run: func(pass *rules.Pass) error {
			eachArtifact(pass, func(v versions) {
				id, ok := v.cur.top["id"].(string)
				want := "artifact:" + slug(v.path)
				if ok && id != want {
					pass.Report(v.path, v.cur.doc.Line("id"), "id is %q but the file is %s: the id must be %q", id, v.path, want)
				}
				if v.old != nil {
					if oldID, _ := v.old.top["id"].(string); oldID != "" && oldID != id {
						pass.Report(v.path, v.cur.doc.Line("id"), "id changed from %q to %q: an artifact keeps its id; restore it", oldID, id)
					}
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
SMP: provenance entries must not be modified or deleted. Compared with the previous version, every provenance entry must still be there, unchanged and in order, and created must not change; deleting or renaming an artifact is reported too. Values are compared, not text, so awp's requoting and folding are fine. awp sync pull replaces a trailing synced entry on a fast-forward: that is reported as well, as an error unless smp.sync-replace: warning is set in .small-hook.yml. Restore the entry and record the change as a new entry.`,
		Continuity: true,
		Run: func(pass *rules.Pass) error {
			for i := range pass.Unit.Changes {
				ch := &pass.Unit.Changes[i]
				if isArtifact(ch) && ch.New == nil && ch.Old != nil {
					pass.Report(ch.Path, 0, "%s was deleted (or renamed): a knowledge artifact's history is kept; restore it, and merge or supersede it with a new artifact instead", ch.Path)
				}
			}
			eachArtifact(pass, func(v versions) {
				if v.old != nil && !yamldoc.Equal(v.old.top["created"], v.cur.top["created"]) {
					pass.Report(v.path, v.cur.doc.Line("created"), "created changed from %v to %v: it records when the artifact was made; restore it", v.old.top["created"], v.cur.top["created"])
				}
				switch {
				case v.change.Merge != nil:
					checkMerge(pass, v)
				case v.old != nil:
					checkPrefix(pass, v, v.old.provenance(), "the previous version")
				}
			})
			return nil
		},
	}
}

// checkPrefix reports old provenance entries that are not an unchanged
// prefix of the new provenance.
func checkPrefix(pass *rules.Pass, v versions, old []any, what string) {
	cur := v.cur.provenance()
	for i, o := range old {
		if i < len(cur) && yamldoc.Equal(o, cur[i]) {
			continue
		}
		if syncReplaced(old, cur, i) {
			sev := rules.Error
			if pass.Config.SMP.SyncReplace == "warning" {
				sev = rules.Warning
			}
			pass.ReportSeverity(sev, v.path, v.cur.entryLine(i), "%s of %s, a trailing `synced` entry, was replaced, as `awp sync pull` does on a fast-forward: provenance is append-only; keep the earlier entry and append the new one after it (set smp.sync-replace: warning in .small-hook.yml to accept awp's behaviour)", describeEntry(i, o), what)
			return
		}
		line := v.cur.doc.Line("provenance")
		if i < len(cur) {
			line = v.cur.entryLine(i)
		}
		pass.Report(v.path, line, "%s of %s %s; provenance is append-only: restore it and record the change as a new `updated` entry", describeEntry(i, o), what, whatHappened(old, cur, i))
		return
	}
}

// whatHappened says how old entry i fails to be cur[i]: removed, moved,
// changed in place, or replaced by a different entry.
func whatHappened(old, cur []any, i int) string {
	o := old[i]
	switch {
	case i >= len(cur) || index(old, cur[i]) > i && index(cur, o) < 0:
		return "was removed"
	case index(cur, o) >= 0:
		return "was moved: the entries were reordered"
	}
	if keys := yamldoc.ChangedKeys(o, cur[i]); len(keys) > 0 && action(cur[i]) == action(o) && agent(cur[i]) == agent(o) {
		verb := "differ"
		if len(keys) == 1 {
			verb = "differs"
		}
		return fmt.Sprintf("was changed: %s %s", strings.Join(keys, ", "), verb)
	}
	return "was replaced by a different entry"
}

// syncReplaced reports awp's fast-forward sync: the last old entry is a
// synced entry, and the new list has a different synced entry in its place.
func syncReplaced(old, cur []any, i int) bool {
	return i == len(old)-1 && i < len(cur) && action(old[i]) == "synced" && action(cur[i]) == "synced"
}

// checkMerge checks a merge commit's artifact: the merge base's entries
// as a prefix and every parent's entries in that parent's order.
func checkMerge(pass *rules.Pass, v versions) {
	m := v.change.Merge
	if m.Base != nil {
		if base := parse(pass, m.Base); base.err == nil {
			checkPrefix(pass, v, base.provenance(), "the merge base")
		}
	}
	cur := v.cur.provenance()
	for pi, p := range m.Parents {
		if p == nil {
			continue
		}
		parent := parse(pass, p)
		if parent.err != nil {
			continue
		}
		j := 0
		for i, e := range parent.provenance() {
			for j < len(cur) && !yamldoc.Equal(cur[j], e) {
				j++
			}
			if j == len(cur) {
				pass.Report(v.path, v.cur.doc.Line("provenance"), "the merge lost or rewrote %s of parent %d: a merge keeps every parent's provenance in order; redo the merge", describeEntry(i, e), pi+1)
				break
			}
			j++
		}
	}
}

func versionRule() *rules.Rule {
	return &rules.Rule{
		ID:       "smp/version",
		Severity: rules.Error,
		Doc: `The version counter rises by one per recorded change
SMP: version starts at 1 and every update or merge increments it by 1. Compared with the previous version, version must rise by exactly the number of new updated and merged provenance entries (a new synced entry may raise it by one or not: awp sync does both), and never go down. A new artifact's version is at least the number of its created, updated and merged entries; a merge commit's version is at least every parent's.`,
		Continuity: true,
		Run: func(pass *rules.Pass) error {
			eachArtifact(pass, func(v versions) {
				cur := v.cur.version()
				if cur < 0 {
					return
				}
				line := v.cur.doc.Line("version")
				if m := v.change.Merge; m != nil {
					for _, p := range m.Parents {
						if p == nil {
							continue
						}
						if a := parse(pass, p); a.err == nil && a.version() > cur {
							pass.Report(v.path, line, "version %d is below a merged parent's version %d: versions never go down", cur, a.version())
						}
					}
					return
				}
				newEntries, _ := added(pass, v)
				bumps, syncs := 0, 0
				for _, e := range newEntries {
					switch action(e) {
					case "updated", "merged":
						bumps++
					case "synced":
						syncs++
					}
				}
				if v.old == nil {
					if created := countActions(v.cur.provenance(), "created", "updated", "merged"); cur < int64(created) {
						pass.Report(v.path, line, "version %d is below the %d created, updated and merged provenance entries: each of them raised the version by one", cur, created)
					}
					return
				}
				old := v.old.version()
				if old < 0 {
					return
				}
				switch rise := cur - old; {
				case rise < 0:
					pass.Report(v.path, line, "version went down from %d to %d: versions only rise", old, cur)
				case rise < int64(bumps) || rise > int64(bumps+syncs):
					pass.Report(v.path, line, "version rose by %d (%d to %d) but %d updated/merged entries were added: each recorded change raises the version by exactly one; set version to %d", rise, old, cur, bumps, old+int64(bumps))
				}
			})
			return nil
		},
	}
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

// bookkeeping reports the frontmatter keys that recording a change itself
// touches.
func bookkeeping(key string) bool {
	switch key {
	case "provenance", "version", "lastModified", "modifiedBy":
		return true
	}
	return false
}

func unrecordedRule() *rules.Rule {
	return &rules.Rule{
		ID:       "smp/unrecorded-change",
		Severity: rules.Error,
		Doc: `Every change to an artifact is recorded in provenance
SMP's provenance is the audit trail of an artifact: when the body or the metadata (anything but provenance, version, lastModified and modifiedBy) changes, a new provenance entry must record it. Record the change with awp artifact commit, or append an updated entry and raise the version.`,
		Run: func(pass *rules.Pass) error {
			eachArtifact(pass, func(v versions) {
				if v.old == nil || v.change.Merge != nil {
					return
				}
				if newEntries, _ := added(pass, v); len(newEntries) > 0 {
					return
				}
				var what []string
				for _, k := range yamldoc.ChangedKeys(v.old.top, v.cur.top) {
					if !bookkeeping(k) {
						what = append(what, k)
					}
				}
				if normalise(v.old.body) != normalise(v.cur.body) {
					what = append(what, "the body")
				}
				if len(what) > 0 {
					pass.Report(v.path, v.cur.doc.Line("provenance"), "%s changed but no provenance entry records it: append an `updated` entry (awp artifact commit) and raise the version", strings.Join(what, ", "))
				}
			})
			return nil
		},
	}
}

// normalise makes line endings comparable: converting a file to CRLF is
// not a change of its content.
func normalise(body string) string {
	return strings.ReplaceAll(body, "\r\n", "\n")
}
