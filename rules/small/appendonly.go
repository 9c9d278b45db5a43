package small

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/yamldoc"
)

// maxEntryFindings bounds how many entries one finding list names; the
// rest are counted in a last finding.
const maxEntryFindings = 20

func appendOnlyRule() *rules.Rule {
	return &rules.Rule{
		ID:       "small/append-only",
		Severity: rules.Error,
		Doc: `progress.small.yml is append-only
SMALL invariant 3: progress entries must not be deleted or modified after creation; new entries are appended. Compared with the previous version (HEAD, or each commit's parent), every existing entry must still be there, unchanged and in order, small_version and owner must not change, and the file must not be deleted. Values are compared, not text, so re-serialisation (key order, indentation, quoting) is fine. A merge must keep the merge base's entries as a prefix and every parent's entries in that parent's order. To correct an entry, restore it and append a new entry that supersedes it.`,
		Continuity: true,
		Run: func(pass *rules.Pass) error {
			for _, s := range spaces(pass) {
				if ch := s.changed(Progress); ch != nil {
					checkAppendOnly(pass, ch)
				}
			}
			return nil
		},
	}
}

// checkAppendOnly judges one change to a progress file.
func checkAppendOnly(pass *rules.Pass, ch *changes.Change) {
	if ch.New == nil {
		if ch.Old != nil {
			pass.Report(ch.Path, 0, "%s was deleted: progress is append-only history and must be kept; restore it (git restore --staged --worktree %s)", ch.Path, ch.Path)
		}
		return
	}
	if viewProgress(pass, ch).appendOnly {
		return
	}
	newFile := decode(pass, ch.New)
	if newFile.err != nil {
		return
	}
	if ch.Merge != nil {
		checkMerge(pass, ch, newFile)
		return
	}
	if ch.Old == nil || ch.Old.Kind != changes.KindFile {
		return
	}
	oldFile := decode(pass, ch.Old)
	if oldFile.err != nil {
		return
	}
	checkHeader(pass, ch.Path, oldFile, newFile)
	checkPrefix(pass, ch.Path, entriesOf(oldFile), newFile, "the previous version")
}

// checkHeader reports a changed small_version or owner.
func checkHeader(pass *rules.Pass, path string, oldFile, newFile *parsed) {
	for _, key := range []string{"small_version", "owner"} {
		o, n := oldFile.top[key], newFile.top[key]
		if !yamldoc.Equal(o, n) {
			pass.Report(path, newFile.doc.Line(key), "%s changed from %s to %s: progress history keeps its header; restore it", key, show(o), show(n))
		}
	}
}

// checkPrefix reports how the new file breaks the rule that the entries of
// old stay its unchanged prefix: entries removed or changed, entries moved,
// and new entries inserted before old ones.
func checkPrefix(pass *rules.Pass, path string, old []any, newFile *parsed, what string) {
	cur := entriesOf(newFile)
	at := func(j int) int { return newFile.doc.Line("entries", fmt.Sprint(j)) }
	report := limiter(pass, path, newFile.doc.Line("entries"))
	last := -1
	kept := map[int]bool{}
	for i, o := range old {
		name := fmt.Sprintf("entry %d (task_id %s) of %s", i+1, taskOf(o), what)
		j := indexFrom(o, cur, last+1)
		switch {
		case j >= 0:
			last, kept[j] = j, true
		case indexFrom(o, cur, 0) >= 0:
			report(at(indexFrom(o, cur, 0)), "%s was moved: progress is append-only; restore the original order and append new entries at the end", name)
		case i < len(cur) && taskOf(o) == taskOf(cur[i]):
			kept[i] = true
			report(at(i), "%s was changed (%s differs): progress is append-only; restore the entry as it was and append a new entry that supersedes it", name, strings.Join(yamldoc.ChangedKeys(o, cur[i]), ", "))
		default:
			line := newFile.doc.Line("entries")
			if i < len(cur) {
				line = at(i)
			}
			report(line, "%s was removed or rewritten: progress is append-only; restore it and append a new entry that supersedes it", name)
		}
	}
	for j := 0; j < last; j++ {
		if !kept[j] && indexFrom(cur[j], old, 0) < 0 {
			report(at(j), "entry %d (task_id %s) was inserted before existing entries: new progress entries go at the end of the list", j+1, taskOf(cur[j]))
		}
	}
}

// limiter reports at most maxEntryFindings findings, then one that says
// more were left out.
func limiter(pass *rules.Pass, path string, summaryLine int) func(line int, format string, args ...any) {
	n := 0
	return func(line int, format string, args ...any) {
		n++
		switch {
		case n <= maxEntryFindings:
			pass.Report(path, line, format, args...)
		case n == maxEntryFindings+1:
			pass.Report(path, summaryLine, "more entries break append-only history (only the first %d are listed)", maxEntryFindings)
		}
	}
}

// checkMerge checks a merge result: the merge base's entries as an
// unchanged prefix, and every parent's entries in that parent's order.
func checkMerge(pass *rules.Pass, ch *changes.Change, newFile *parsed) {
	if ch.Merge.Base != nil {
		if base := oldEntries(pass, ch.Merge.Base); base != nil {
			checkPrefix(pass, ch.Path, base, newFile, "the merge base")
		}
	}
	cur := entriesOf(newFile)
	for pi, p := range ch.Merge.Parents {
		list := oldEntries(pass, p)
		j := 0
		for i, e := range list {
			for j < len(cur) && !yamldoc.Equal(cur[j], e) {
				j++
			}
			if j == len(cur) {
				pass.Report(ch.Path, newFile.doc.Line("entries"), "the merge lost or rewrote entry %d (task_id %s) of parent %d (%s): a merge of progress keeps every entry of every parent in order; redo the merge keeping both sides' entries", i+1, taskOf(e), pi+1, shortParent(pass, pi))
				break
			}
			j++
		}
	}
}

func shortParent(pass *rules.Pass, i int) string {
	if c := pass.Unit.Commit; c != nil && i < len(c.Parents) && len(c.Parents[i]) >= 12 {
		return c.Parents[i][:12]
	}
	return "?"
}

// indexFrom returns the position of the first value equal to e in list at
// or after from, or -1.
func indexFrom(e any, list []any, from int) int {
	for j := from; j < len(list); j++ {
		if yamldoc.Equal(e, list[j]) {
			return j
		}
	}
	return -1
}

func taskOf(e any) string {
	if m, ok := e.(map[string]any); ok {
		if s, ok := m["task_id"].(string); ok {
			return s
		}
	}
	return "?"
}
