package small

import (
	"bytes"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
)

// mergedAppendsView is the view of the common merge of progress: both
// branches appended entries to the merge base's file, and the result is
// the first parent's file followed, byte for byte, by what the second
// parent appended. Then, proved from the bytes and the appended entries
// alone, the full comparison (buildView, checkMerge) finds what this view
// says: no parent's entry lost or moved, no entry that no parent holds, and
// one junction, where the second parent's entries start after the first
// parent's; and the entries new to the first parent's file are the second
// parent's, which the schema judges as the appended ones. nil when any of
// that cannot be proved; the caller compares the decoded documents then.
// FuzzMergedAppends holds this view to buildView's full comparison.
//
// Why the full comparison agrees: with base B, the first parent B+Y, the
// second B+X and the result B+Y+X, aligning (align, which takes each old
// entry for the first later entry of the result that is the same) the
// base and the first parent finds each of their entries in place, and the
// second parent's X after Y as long as no entry of X can be taken for one
// of Y (distinct); identical bytes decode to equal values, which align
// takes for the same entry.
func mergedAppendsView(pass *rules.Pass, ch *changes.Change) *progressView {
	m := ch.Merge
	if len(m.Parents) != 2 || !regularFile(m.Base) || !regularFile(m.Parents[0]) || !regularFile(m.Parents[1]) {
		return nil
	}
	base, ours, theirs := m.Base, m.Parents[0], m.Parents[1]
	if len(ours.Data) > len(ch.New.Data) || len(base.Data) > len(theirs.Data) ||
		!bytes.Equal(ch.New.Data[len(ours.Data):], theirs.Data[len(base.Data):]) {
		return nil
	}
	y := pass.Appended(base, ours, "entries")
	if y == nil {
		return nil
	}
	x := pass.Appended(base, theirs, "entries")
	if x == nil {
		return nil
	}
	r := pass.Appended(ours, ch.New, "entries")
	if r == nil {
		return nil
	}
	ys, _ := y.Items.Value.([]any)
	xs, _ := r.Items.Value.([]any)
	theirItems, _ := x.Items.Value.([]any)
	if len(ys) == 0 || len(xs) == 0 || len(xs) != len(theirItems) {
		return nil
	}
	for i, e := range xs {
		if !yamldoc.Equal(e, theirItems[i]) {
			return nil
		}
		for _, o := range ys {
			if !distinct(e, o) {
				return nil
			}
		}
	}
	v := appendedView(r)
	v.added = nil
	v.junctions = []junction{{prev: *v.before, cur: v.appended[0]}}
	return v
}

// regularFile reports whether b is a version that is a regular file.
func regularFile(b *changes.Blob) bool {
	return b != nil && b.Kind == changes.KindFile
}

// distinct reports whether two entries differ in more than a timestamp:
// history.same, which takes an entry for another whose timestamp records
// the same time, can then never take one for the other.
func distinct(a, b any) bool {
	am, ok1 := a.(map[string]any)
	bm, ok2 := b.(map[string]any)
	if !ok1 || !ok2 {
		return !yamldoc.Equal(a, b)
	}
	if len(am) != len(bm) {
		return true
	}
	for k, v := range am {
		w, ok := bm[k]
		if !ok || (k != "timestamp" && !yamldoc.Equal(v, w)) {
			return true
		}
	}
	return false
}
