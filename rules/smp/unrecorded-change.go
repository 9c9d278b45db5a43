package smp

import (
	"sort"
	"strings"

	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
)

// unrecordedLeaves are the rules smp/unrecorded-change leaves what they
// report to: a rewrite of history and a changed created (smp/append-only),
// a changed id (smp/id), lost authors (smp/provenance).
type unrecordedLeaves struct {
	appendOnly, id, provenance *rules.Rule
}

func unrecordedRule(leaves unrecordedLeaves) *rules.Rule {
	return &rules.Rule{
		ID:           "smp/unrecorded-change",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `Every change to an artifact is recorded in provenance
SMP's provenance is the audit trail of an artifact: when the body or the metadata (anything but provenance, version, lastModified and modifiedBy) changes, a new provenance entry must record it. A merge commit is judged the same way: content that no parent holds and that merging the parents does not yield needs a new entry too. A plain merge takes, for each metadata key, a parent's value (or, for a list such as authors or tags, the union of the parents' lists), and for the body a line-by-line three-way merge of the parents over their merge base, where a region both sides changed keeps one side or every line of both. Keys other rules own (created, id, lost authors) are left to them. Record the change with awp artifact commit, or append an updated entry and raise the version.`,
		Leaves: []*rules.Rule{leaves.appendOnly, leaves.id, leaves.provenance},
		Run: func(pass *rules.Pass) error {
			eachArtifact(pass, func(v versions) {
				if rewritesHistory(pass, leaves.appendOnly, v) {
					return
				}
				if entries, _ := added(pass, v); len(entries) > 0 {
					return
				}
				if v.change.Merge != nil {
					if what := unmerged(pass, leaves, v); len(what) > 0 {
						pass.Report(v.path, v.cur.doc.Line("provenance"), "this merge writes %s that no parent holds and merging the parents does not yield, but adds no provenance entry", strings.Join(what, ", ")).
							Hint("content a merge introduces is recorded like any other change; append an `updated` entry (awp artifact commit) and raise the version")
					}
					return
				}
				if v.old == nil {
					return
				}
				var what []string
				for _, k := range yamldoc.ChangedKeys(v.old.top, v.cur.top) {
					if !ownedElsewhere(pass, leaves, v, k) {
						what = append(what, clip(k, valueLength))
					}
				}
				if normalise(v.old.body) != normalise(v.cur.body) {
					what = append(what, "the body")
				}
				if len(what) > 0 {
					pass.Report(v.path, v.cur.doc.Line("provenance"), "%s changed but no provenance entry records it", strings.Join(what, ", ")).
						Hint("append an `updated` entry (awp artifact commit) and raise the version")
				}
			})
			return nil
		},
	}
}

// ownedElsewhere reports the frontmatter keys this rule leaves alone: what
// recording a change itself touches, and what another running rule
// reports (created: smp/append-only; id: smp/id; authors that lost a
// member: smp/provenance).
func ownedElsewhere(pass *rules.Pass, leaves unrecordedLeaves, v versions, key string) bool {
	switch key {
	case "provenance", "version", "lastModified", "modifiedBy":
		return true
	case "created":
		return pass.Reports(leaves.appendOnly)
	case "id":
		return pass.Reports(leaves.id)
	case "authors":
		return pass.Reports(leaves.provenance) && len(lostAuthors(pass, v)) > 0
	}
	return false
}

// unmerged lists what a merge commit's artifact holds that is neither a
// parent's nor the plain merge of its parents: metadata keys, and "the
// body".
func unmerged(pass *rules.Pass, leaves unrecordedLeaves, v versions) []string {
	parents := previous(pass, v)
	if len(parents) == 0 {
		return nil // new in the merge: judged as a new artifact
	}
	keys := map[string]bool{}
	for _, a := range append([]*artifact{v.cur}, parents...) {
		for k := range a.top {
			keys[k] = true
		}
	}
	var what []string
	for k := range keys {
		if !ownedElsewhere(pass, leaves, v, k) && !mergedValue(k, v.cur, parents) {
			what = append(what, clip(k, valueLength))
		}
	}
	sort.Strings(what)
	if !mergedBody(pass, v, parents) {
		what = append(what, "the body")
	}
	return what
}

// mergedValue reports whether cur's value at key is a parent's (absence
// included), or, for a list, the union of the parents' lists.
func mergedValue(key string, cur *artifact, parents []*artifact) bool {
	cv, has := cur.top[key]
	for _, p := range parents {
		if pv, pHas := p.top[key]; pHas == has && (!has || yamldoc.Equal(cv, pv)) {
			return true
		}
	}
	list, isList := cv.([]any)
	if !isList {
		return false
	}
	var union []any
	for _, p := range parents {
		pl, ok := p.top[key].([]any)
		if !ok {
			return false
		}
		union = append(union, pl...)
	}
	for _, e := range list {
		if index(union, e) < 0 {
			return false
		}
	}
	for _, e := range union {
		if index(list, e) < 0 {
			return false
		}
	}
	return true
}

// mergedBody reports whether a merge's body is a parent's, or the plain
// merge of two parents' bodies over the merge base's (see plainMerge).
func mergedBody(pass *rules.Pass, v versions, parents []*artifact) bool {
	body := normalise(v.cur.body)
	for _, p := range parents {
		if normalise(p.body) == body {
			return true
		}
	}
	if len(parents) != 2 {
		return false
	}
	base := ""
	if b := v.change.Merge.Base; b != nil {
		if a := parse(pass, b); a.err == nil {
			base = a.body
		}
	}
	return plainMerge(base, parents[0].body, parents[1].body, v.cur.body)
}

// normalise makes line endings comparable: converting a file to CRLF is
// not a change of its content.
func normalise(body string) string {
	return strings.ReplaceAll(body, "\r\n", "\n")
}
