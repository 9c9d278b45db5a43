package smp

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
)

// rewrite is one way a change rewrites the history before it.
type rewrite struct {
	line int
	// msg says what the change did, undo how to keep the history instead.
	msg, undo string
	// syncReplace marks awp's replacement of a trailing synced entry,
	// which records a new sync rather than hiding an old change.
	syncReplace bool
}

// rewrites returns how a change rewrites history: a changed created, and
// the first provenance entry of the previous version (for a merge: of the
// merge base, else of any parent) that is not kept in order. It is
// computed once per change.
func rewrites(pass *rules.Pass, v versions) []rewrite {
	return historyRewrites.Get(pass, v.change)
}

// historyRewrites is the fact of how a change to an artifact whose new
// version parses rewrites history: what smp/append-only reports, and the
// rules that leave consequences to it read.
var historyRewrites = rules.ChangeFact(func(pass *rules.Pass, ch *changes.Change) []rewrite {
	v, _ := versionsOf(pass, ch)
	return findRewrites(pass, v)
})

func findRewrites(pass *rules.Pass, v versions) []rewrite {
	var out []rewrite
	if was := createdBefore(pass, v); was != nil && !yamldoc.Equal(was.top["created"], v.cur.top["created"]) {
		out = append(out, rewrite{line: v.cur.doc.Line("created"), msg: fmt.Sprintf(
			"created changed from %s to %s: it records when the artifact was made and never changes",
			was.written("created"), v.cur.written("created")), undo: "restore created: " + was.written("created")})
	}
	m := v.change.Merge
	if m == nil {
		if v.old != nil {
			if r, ok := prefixRewrite(v, v.old.provenance(), "the previous version"); ok {
				out = append(out, r)
			}
		}
		return out
	}
	if base := earlier(pass, m.Base); base != nil {
		if r, ok := prefixRewrite(v, base.provenance(), "the merge base"); ok {
			return append(out, r)
		}
	}
	cur := v.cur.provenance()
	for pi, p := range m.Parents {
		parent := earlier(pass, p)
		if parent == nil {
			continue
		}
		if pass.Unit.Mode == changes.ModeTip {
			if r, ok := tipRewrite(pass, v, parent.provenance(), m.Onto); ok {
				return append(out, r)
			}
			continue
		}
		j := 0
		for i, e := range parent.provenance() {
			for j < len(cur) && !yamldoc.Equal(cur[j], e) {
				j++
			}
			if j == len(cur) {
				return append(out, rewrite{line: v.cur.doc.Line("provenance"), msg: fmt.Sprintf(
					"the merge lost or rewrote %s of parent %d", describeEntry(i, e), pi+1),
					undo: "a merge keeps every parent's provenance entries in their order: redo the merge keeping both sides' entries"})
			}
			j++
		}
	}
	return out
}

// createdBefore returns the earlier version whose created a change keeps:
// the old version, or, for a merge whose first parent holds no earlier
// version of the artifact (it stripped the declaration, say), the merge
// base's, else another parent's. nil for a new artifact.
func createdBefore(pass *rules.Pass, v versions) *artifact {
	m := v.change.Merge
	if v.old != nil || m == nil {
		return v.old
	}
	if base := earlier(pass, m.Base); base != nil {
		return base
	}
	if prev := previous(pass, v); len(prev) > 0 {
		return prev[0]
	}
	return nil
}

// keepTip is how to undo a push that rewrites the provenance its branch
// held.
const keepTip = "a push keeps every provenance entry the branch held, in order, with new entries after them (rebase or merge without dropping entries, and push the result); an entry stands between them only when the default branch holds it, and on the default and protected branches not at all"

// tipRewrite returns how a rewritten branch's new tip fails to keep the
// previous tip's provenance (old): every entry in order, and between them
// only entries onto holds (the revision a rebase moved the branch onto;
// nil on the default and protected branches).
func tipRewrite(pass *rules.Pass, v versions, old []any, onto *changes.Blob) (rewrite, bool) {
	cur := v.cur.provenance()
	kept := make([]bool, len(cur))
	j, last := 0, -1
	for i, e := range old {
		for j < len(cur) && !yamldoc.Equal(cur[j], e) {
			j++
		}
		if j == len(cur) {
			return rewrite{line: v.cur.doc.Line("provenance"), msg: fmt.Sprintf("%s of the previous tip is lost or rewritten", describeEntry(i, e)), undo: keepTip}, true
		}
		kept[j], last = true, j
		j++
	}
	var ontoEntries []any
	if onto != nil {
		if o := parse(pass, onto); o.err == nil {
			ontoEntries = o.provenance()
		}
	}
	trusted := yamldoc.NewComparer().Set(ontoEntries)
	for k := 0; k < last; k++ {
		if !kept[k] && !trusted.Has(cur[k]) {
			return rewrite{line: v.cur.entryLine(k), msg: fmt.Sprintf("%s was inserted between entries of the previous tip", describeEntry(k, cur[k])), undo: keepTip}, true
		}
	}
	return rewrite{}, false
}

// prefixRewrite returns how the old entries fail to be an unchanged prefix
// of the new provenance, if they do.
func prefixRewrite(v versions, old []any, what string) (rewrite, bool) {
	cur := v.cur.provenance()
	for i, o := range old {
		if i < len(cur) && yamldoc.Equal(o, cur[i]) {
			continue
		}
		if syncReplaced(old, cur, i) {
			return rewrite{line: v.cur.entryLine(i), syncReplace: true,
				msg:  fmt.Sprintf("%s of %s, a trailing `synced` entry, was replaced, as `awp sync pull` does on a fast-forward", describeEntry(i, o), what),
				undo: "provenance is append-only; keep the earlier entry and append the new one after it (set smp.sync-replace: warning in .small-hook.yml to accept awp's behaviour)"}, true
		}
		line := v.cur.doc.Line("provenance")
		if i < len(cur) {
			line = v.cur.entryLine(i)
		}
		return rewrite{line: line, msg: fmt.Sprintf("%s of %s %s", describeEntry(i, o), what, whatHappened(old, cur, i)),
			undo: "restore the entry and record the change as a new `updated` entry"}, true
	}
	return rewrite{}, false
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
		for k := range keys {
			keys[k] = clip(keys[k], valueLength)
		}
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

// rewritesHistory reports whether smp/append-only (appendOnly) reports the
// change as a rewrite of history (awp's sync replacement aside). The rules
// that judge what a change adds then leave the consequences unsaid: one
// problem, one finding.
func rewritesHistory(pass *rules.Pass, appendOnly *rules.Rule, v versions) bool {
	if !pass.Reports(appendOnly) {
		return false
	}
	for _, r := range rewrites(pass, v) {
		if !r.syncReplace {
			return true
		}
	}
	return false
}

// judgedEntries returns the provenance entries a change adds that are
// judged on their own: all of added's, except, when the change rewrites
// history, those standing where an earlier version had entries (they are
// the rewrite smp/append-only, appendOnly, reports, not new records).
func judgedEntries(pass *rules.Pass, appendOnly *rules.Rule, v versions) (entries []any, at []int) {
	entries, at = added(pass, v)
	if !rewritesHistory(pass, appendOnly, v) {
		return entries, at
	}
	end := 0
	for _, prev := range previous(pass, v) {
		end = max(end, len(prev.provenance()))
	}
	var keptEntries []any
	var keptAt []int
	for k, i := range at {
		if i >= end {
			keptEntries = append(keptEntries, entries[k])
			keptAt = append(keptAt, i)
		}
	}
	return keptEntries, keptAt
}
