package small

import (
	"fmt"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
)

func appendOnlyRule() *rules.Rule {
	return &rules.Rule{
		ID:           "small/append-only",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `progress.small.yml is append-only
SMALL invariant 3: progress entries must not be deleted or modified after creation; new entries are appended. Compared with the previous version (HEAD, or each commit's parent), every existing entry must still be there, unchanged and in order, small_version and owner must not change, and the file must not be deleted. Values are compared, not text, so re-serialisation (key order, indentation, quoting) is fine, and so is the rewrite of old timestamps that ` + "`small progress migrate`" + ` makes: the same instant written otherwise (UTC, nine fractional digits), and entries that share an instant spread by a nanosecond each (by no more nanoseconds than there are such entries, as current and earlier releases do); exactly what migrate computes for an entry it had to move past its predecessor is accepted too, and nothing else. An entry is new because of where it stands: an old entry copied to the end is a new entry, and any entry placed before old ones is reported. A merge must keep the merge base's entries as a prefix and every parent's entries in that parent's order. A push that rewrites a branch (its new tip does not contain the previous one) must keep every entry the previous tip held, in order: on the default branch and the branches push.protect names nothing may stand between them, and elsewhere only an entry the default branch holds (a rebase onto it). To correct an entry, restore it and append a new entry that supersedes it. However many entries a change rewrites, it is one finding that lists them (the first five, and how many more). A rewrite the project intends (e.g. ` + "`small fix --orphan-progress`" + `) is committed by a human with the trailer Small-Rewrite: <reason> and no agent marker, signed or not: it is then a warning that records the reason. The pre-commit stage, which cannot read the message, leaves the decision to the commit-msg stage when the commit-msg hook runs small-hook; where none does, a human sets SMALL_HOOK_REWRITE=<reason> for the commit, and the message says which applies.`,
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

// checkAppendOnly judges one change to a progress file: however many ways
// it rewrites history, it is one finding.
func checkAppendOnly(pass *rules.Pass, ch *changes.Change) {
	if ch.New == nil {
		if ch.Old != nil {
			pass.ReportRewrite(ch.Path, 0, ch.Path+" was deleted: progress is append-only history and is kept", restoreDeleted(pass, ch.Path))
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
	r := newRewrites(pass, ch.Path)
	defer r.report()
	if ch.Merge != nil {
		checkMerge(r, ch, newFile)
		return
	}
	if ch.Old == nil || ch.Old.Kind != changes.KindFile {
		return
	}
	oldFile := decode(pass, ch.Old)
	if oldFile.err != nil {
		return
	}
	old, cur := entriesOf(oldFile), entriesOf(newFile)
	checkHeader(r, oldFile, newFile)
	checkHistory(r, align(old, cur), newFile, "the previous version")
	if orphanRepair(old, cur) {
		r.repair = "these are the rewrites the reference CLI's `small fix --orphan-progress` makes after `small reset`: old task_ids that name no plan task become meta/ ones, and a meta/reconcile-plan entry records it"
	}
}

// restoreDeleted says how to bring back a deleted file: from HEAD in the
// staged stages, in a new commit from the parent in a range.
func restoreDeleted(pass *rules.Pass, path string) string {
	if c := pass.Unit.Commit; c != nil && len(c.Parents) > 0 {
		return fmt.Sprintf("restore it in a new commit (git checkout %s -- %s)", c.Parents[0][:min(12, len(c.Parents[0]))], path)
	}
	return "restore it (git restore --staged --worktree " + path + ")"
}

// checkHeader reports a changed small_version or owner.
func checkHeader(r *rewrites, oldFile, newFile *parsed) {
	for _, key := range []string{"small_version", "owner"} {
		o, n := oldFile.top[key], newFile.top[key]
		if !yamldoc.Equal(o, n) {
			r.add(newFile.doc.Line(key), restoreHistory, "%s changed from %s to %s", key, show(o), show(n))
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
		r.add(line, restoreHistory, "%s of %s %s", entryRange(h.old, removed), what, words.Plural(len(removed), "was removed", "were removed"))
		removed = nil
	}
	for i, o := range h.old {
		switch j, isPaired := paired[i]; {
		case h.match[i] >= 0:
			flush()
		case isPaired:
			flush()
			r.add(at(j), restoreHistory, "%s of %s was changed (%s)", entryName(i, o), what, changedKeys(o, h.cur[j]))
		case h.inNew(o) >= 0:
			flush()
			j := h.inNew(o)
			r.add(at(j), restoreHistory, "%s of %s was moved to position %d", entryName(i, o), what, j+1)
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
		if h.inEarlier(h.cur[j]) >= 0 {
			r.add(at(j), restoreHistory, "%s is a copy of an earlier entry placed before existing entries", entryName(j, h.cur[j]))
			continue
		}
		undo := restoreHistory
		if rebased(r.pass) {
			undo += "; " + mergeInstead
		}
		r.add(at(j), undo, "%s was inserted before existing entries", entryName(j, h.cur[j]))
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

// inNew returns the position of the first entry of the new version equal
// to e, or -1.
func (h *history) inNew(e any) int {
	if h.newIndex == nil {
		h.newIndex = h.eq.Index(h.cur)
	}
	return h.newIndex.First(e, 0)
}

// inEarlier returns the position of the first entry of the earlier
// version equal to e, or -1.
func (h *history) inEarlier(e any) int {
	if h.oldIndex == nil {
		h.oldIndex = h.eq.Index(h.old)
	}
	return h.oldIndex.First(e, 0)
}

// restoreHistory is how to undo a rewrite of entries.
const restoreHistory = "restore the entries as they were: an entry is corrected by appending a new entry that supersedes it, and new entries go at the end"

// maxRewrites bounds how many rewrites one finding names.
const maxRewrites = 5

// rewrites gathers the ways one change rewrites history, for one finding
// (rules.Pass.ReportRewrite decides its severity from who made the change).
type rewrites struct {
	pass *rules.Pass
	path string
	// line is the line of the first rewrite.
	line  int
	items []string
	// undo lists how to undo each kind of rewrite found, once each.
	undo []string
	// repair names the reference CLI's repair when the rewrites are
	// exactly what it writes.
	repair string
}

func newRewrites(pass *rules.Pass, path string) *rewrites {
	return &rewrites{pass: pass, path: path}
}

// add records one rewrite at line, and how to undo it.
func (r *rewrites) add(line int, undo, format string, args ...any) {
	if len(r.items) == 0 {
		r.line = line
	}
	r.items = append(r.items, fmt.Sprintf(format, args...))
	if !slices.Contains(r.undo, undo) {
		r.undo = append(r.undo, undo)
	}
}

// report reports what was gathered, if anything, as one finding.
func (r *rewrites) report() {
	if len(r.items) == 0 {
		return
	}
	shown := r.items
	if len(shown) > maxRewrites {
		shown = append(shown[:maxRewrites:maxRewrites], fmt.Sprintf("and %d more", len(r.items)-maxRewrites))
	}
	what := fmt.Sprintf("%s is append-only progress, and this change rewrites its history: %s", r.path, strings.Join(shown, "; "))
	undo := strings.Join(r.undo, "; ")
	if r.repair != "" {
		undo = r.repair
	}
	r.pass.ReportRewrite(r.path, r.line, what, undo)
}

// checkMerge checks a merge result: the merge base's entries as an
// unchanged prefix, and every parent's entries in that parent's order.
func checkMerge(r *rewrites, ch *changes.Change, newFile *parsed) {
	pass := r.pass
	cur := entriesOf(newFile)
	if ch.Merge.Base != nil {
		if base := oldEntries(pass, ch.Merge.Base); base != nil {
			checkHistory(r, align(base, cur), newFile, "the merge base")
		}
	}
	for pi, p := range ch.Merge.Parents {
		h := align(oldEntries(pass, p), cur)
		if pass.Unit.Mode == changes.ModeTip {
			checkTip(r, h, oldEntries(pass, ch.Merge.Onto), newFile)
			continue
		}
		for i, j := range h.match {
			if j < 0 {
				r.add(newFile.doc.Line("entries"), "redo the merge keeping every entry of both sides, in time order", "the merge lost or rewrote %s of parent %d (%s)", entryName(i, h.old[i]), pi+1, shortParent(pass, pi))
				break
			}
		}
	}
}

// keepTip is how to undo a push that rewrites the entries its branch
// held.
const keepTip = "push a history that keeps every entry the branch held, in order, with new entries after them (rebase or merge without dropping entries, and push the result); an entry stands between them only when the default branch holds it, and on the default and protected branches not at all"

// checkTip judges a rewritten branch's new tip against the previous one
// (h aligns the previous tip's entries with the new tip's): every entry
// the previous tip held is kept in order, and an entry that stands
// between them is one of onto's (the revision a rebase moved the branch
// onto; none on the default and protected branches).
func checkTip(r *rewrites, h *history, onto []any, newFile *parsed) {
	for i, j := range h.match {
		if j < 0 {
			r.add(newFile.doc.Line("entries"), keepTip+"; "+mergeInstead, "%s of the previous tip is lost or rewritten", entryName(i, h.old[i]))
			break
		}
	}
	trusted := h.eq.Set(onto)
	last := h.lastMatched()
	for j := 0; j < last; j++ {
		if h.from[j] < 0 && !trusted.Has(h.cur[j]) {
			r.add(newFile.doc.Line("entries", fmt.Sprint(j)), keepTip, "%s was inserted between entries of the previous tip", entryName(j, h.cur[j]))
		}
	}
}

func shortParent(pass *rules.Pass, i int) string {
	if c := pass.Unit.Commit; c != nil && i < len(c.Parents) && len(c.Parents[i]) >= 12 {
		return words.ShortID(c.Parents[i])
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
