package small

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/yamldoc"
)

// maxEntryFindings bounds how many findings one change's broken history
// gives; the rest are counted in a last finding.
const maxEntryFindings = 20

func appendOnlyRule() *rules.Rule {
	return &rules.Rule{
		ID:       "small/append-only",
		Severity: rules.Error,
		Doc: `progress.small.yml is append-only
SMALL invariant 3: progress entries must not be deleted or modified after creation; new entries are appended. Compared with the previous version (HEAD, or each commit's parent), every existing entry must still be there, unchanged and in order, small_version and owner must not change, and the file must not be deleted. Values are compared, not text, so re-serialisation (key order, indentation, quoting) is fine, and so is the rewrite of old timestamps that ` + "`small progress migrate`" + ` makes: the same instant written otherwise (UTC, nine fractional digits), and entries that share an instant spread by a nanosecond each (by no more nanoseconds than there are such entries, as current and earlier releases do); exactly what migrate computes for an entry it had to move past its predecessor is accepted too, and nothing else. An entry is new because of where it stands: an old entry copied to the end is a new entry, and any entry placed before old ones is reported. A merge must keep the merge base's entries as a prefix and every parent's entries in that parent's order. To correct an entry, restore it and append a new entry that supersedes it. A rewrite the project intends (e.g. ` + "`small fix --orphan-progress`" + `) is committed by a human with the trailer Small-Rewrite: <reason> and is then reported as a warning that lists every rewritten entry (in the pre-commit stage, which cannot read the message, set SMALL_HOOK_REWRITE=<reason> to leave the verdict to the commit-msg stage).`,
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
	r := newRewrites(pass, ch.Path)
	if ch.New == nil {
		if ch.Old != nil {
			r.report(0, fmt.Sprintf("progress is append-only history and must be kept; restore it (git restore --staged --worktree %s)", ch.Path), "%s was deleted", ch.Path)
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
	checkHeader(r, oldFile, newFile)
	checkHistory(r, align(entriesOf(oldFile), entriesOf(newFile)), newFile, "the previous version")
}

// checkHeader reports a changed small_version or owner.
func checkHeader(r *rewrites, oldFile, newFile *parsed) {
	for _, key := range []string{"small_version", "owner"} {
		o, n := oldFile.top[key], newFile.top[key]
		if !yamldoc.Equal(o, n) {
			r.report(newFile.doc.Line(key), "progress history keeps its header; restore it", "%s changed from %s to %s", key, show(o), show(n))
		}
	}
}

// checkHistory reports how the new file breaks the rule that the old
// entries stay an unchanged prefix. Between two old entries found in
// place, an old entry that is missing and a new entry standing where it
// stood, with the same timestamp or task_id, are one entry changed in
// place; other missing old entries were removed (consecutive ones in one
// finding) or moved, and other new entries before the last old one were
// inserted.
func checkHistory(r *rewrites, h *history, newFile *parsed, what string) {
	at := func(j int) int { return newFile.doc.Line("entries", fmt.Sprint(j)) }
	end := newFile.doc.Line("entries")
	if n := len(h.cur); n > 0 {
		end = at(n - 1)
	}
	paired := map[int]int{} // old index -> cur position, for entries changed in place
	taken := map[int]bool{}
	prevOld, prevCur := -1, -1
	for i := 0; i <= len(h.old); i++ {
		if i < len(h.old) && h.match[i] < 0 {
			continue
		}
		nextCur := len(h.cur)
		if i < len(h.old) {
			nextCur = h.match[i]
		}
		j := prevCur + 1
		for k := prevOld + 1; k < i && j < nextCur; k++ {
			for j < nextCur && h.from[j] >= 0 {
				j++
			}
			if j < nextCur && sameRecord(h.old[k], h.cur[j]) {
				paired[k], taken[j] = j, true
				j++
			}
		}
		prevOld, prevCur = i, nextCur
	}
	var removed []int
	flush := func() {
		if len(removed) == 0 {
			return
		}
		line := end
		if j := removed[0]; j < len(h.cur) {
			line = at(j)
		}
		r.report(line, "progress is append-only; restore "+plural(len(removed), "it", "them")+" (to correct an entry, append a new entry that supersedes it)",
			"%s of %s %s", entryRange(h.old, removed), what, plural(len(removed), "was removed", "were removed"))
		removed = nil
	}
	for i, o := range h.old {
		switch j, isPaired := paired[i]; {
		case h.match[i] >= 0:
			flush()
		case isPaired:
			flush()
			r.report(at(j), "progress is append-only; restore the entry as it was and append a new entry that supersedes it", "%s of %s was changed (%s)", entryName(i, o), what, changedKeys(o, h.cur[j]))
		case h.indexOf(o, h.cur) >= 0:
			flush()
			j := h.indexOf(o, h.cur)
			r.report(at(j), "progress is append-only; restore the original order and append new entries at the end", "%s of %s was moved to position %d", entryName(i, o), what, j+1)
		default:
			removed = append(removed, i)
		}
	}
	flush()
	last := h.lastMatched()
	for j := 0; j < last; j++ {
		if h.from[j] >= 0 || taken[j] {
			continue
		}
		if h.indexOf(h.cur[j], h.old) >= 0 {
			r.report(at(j), "new progress entries go at the end of the list", "%s is a copy of an earlier entry placed before existing entries", entryName(j, h.cur[j]))
			continue
		}
		r.report(at(j), "new progress entries go at the end of the list", "%s was inserted before existing entries", entryName(j, h.cur[j]))
	}
}

// sameRecord reports whether a new entry standing where an old one stood
// is that entry edited: it keeps its timestamp or its task_id.
func sameRecord(old, cur any) bool {
	o, _ := old.(map[string]any)
	c, _ := cur.(map[string]any)
	for _, k := range []string{"timestamp", "task_id"} {
		if v, ok := o[k]; ok && yamldoc.Equal(v, c[k]) {
			return true
		}
	}
	return false
}

// changedKeys words which keys of an entry changed, with the old and new
// task_id when that is what changed (as `small fix --orphan-progress`
// does).
func changedKeys(o, n any) string {
	keys := yamldoc.ChangedKeys(o, n)
	if len(keys) == 1 && keys[0] == "task_id" {
		return fmt.Sprintf("task_id %s became %s", bounded(taskOf(o)), bounded(taskOf(n)))
	}
	verb := "differ"
	if len(keys) == 1 {
		verb = "differs"
	}
	return strings.Join(keys, ", ") + " " + verb
}

// indexOf returns the position of the first value equal to e in list, or -1.
func (h *history) indexOf(e any, list []any) int {
	for j := range list {
		if h.eq.Equal(e, list[j]) {
			return j
		}
	}
	return -1
}

// rewrites reports the ways a change rewrites history: errors, unless a
// human commit says it rewrites on purpose (trailer Small-Rewrite), which
// makes them warnings that list every rewritten entry. It caps how many
// findings one change gives.
type rewrites struct {
	pass *rules.Pass
	path string
	n    int
}

func newRewrites(pass *rules.Pass, path string) *rewrites {
	return &rewrites{pass: pass, path: path}
}

func (r *rewrites) report(line int, hint, format string, args ...any) {
	r.n++
	sev, note := r.verdict()
	switch {
	case r.n <= maxEntryFindings:
		r.pass.ReportSeverity(sev, r.path, line, format, args...).Hint("%s", hint+note)
	case r.n == maxEntryFindings+1:
		r.pass.ReportSeverity(sev, r.path, line, "more rewrites of history (only the first %d are listed)", maxEntryFindings).Hint("%s", hint+note)
	}
}

// verdict is the severity of a rewrite of history and what to add to its
// message, from who made the change and whether it says it rewrites on
// purpose.
func (r *rewrites) verdict() (rules.Severity, string) {
	a := r.pass.Actor
	reason := a.Rewrite
	switch {
	case reason == "":
		return rules.Error, " (a rewrite the project intends is committed by a human with the trailer Small-Rewrite: <reason>)"
	case a.Pending:
		return rules.Warning, fmt.Sprintf(" [intended rewrite, SMALL_HOOK_REWRITE=%s: the commit-msg stage decides; only a human commit with the trailer Small-Rewrite may rewrite history]", reason)
	case a.Actor == attribution.Human:
		return rules.Warning, fmt.Sprintf(" [intended rewrite by a human commit (%s), Small-Rewrite: %s]", a.Evidence, reason)
	}
	return rules.Error, fmt.Sprintf(" [Small-Rewrite: %s is not enough: only a human commit may rewrite history, and this one is %s (%s)]", reason, a.Actor, a.Evidence)
}

// checkMerge checks a merge result: the merge base's entries as an
// unchanged prefix, and every parent's entries in that parent's order.
func checkMerge(pass *rules.Pass, ch *changes.Change, newFile *parsed) {
	r := newRewrites(pass, ch.Path)
	cur := entriesOf(newFile)
	if ch.Merge.Base != nil {
		if base := oldEntries(pass, ch.Merge.Base); base != nil {
			checkHistory(r, align(base, cur), newFile, "the merge base")
		}
	}
	for pi, p := range ch.Merge.Parents {
		h := align(oldEntries(pass, p), cur)
		for i, j := range h.match {
			if j >= 0 {
				continue
			}
			if pass.Unit.Mode == changes.ModeTip {
				r.report(newFile.doc.Line("entries"), "a push must keep every entry the branch held (rebase or merge without dropping entries, and push the result)", "%s of the previous tip is lost or rewritten", entryName(i, h.old[i]))
				break
			}
			r.report(newFile.doc.Line("entries"), "a merge of progress keeps every entry of every parent, in time order; redo the merge keeping both sides' entries", "the merge lost or rewrote %s of parent %d (%s)", entryName(i, h.old[i]), pi+1, shortParent(pass, pi))
			break
		}
	}
}

func shortParent(pass *rules.Pass, i int) string {
	if c := pass.Unit.Commit; c != nil && i < len(c.Parents) && len(c.Parents[i]) >= 12 {
		return c.Parents[i][:12]
	}
	if i == 0 {
		return "HEAD"
	}
	return "MERGE_HEAD"
}

func taskOf(e any) string {
	if m, ok := e.(map[string]any); ok {
		if s, ok := m["task_id"].(string); ok {
			return s
		}
	}
	return "?"
}
