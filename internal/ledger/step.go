package ledger

import (
	"fmt"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/yamldoc"
)

// walkStep is the walk of one commit.
type walkStep struct {
	b     *Builder
	n     *node
	u     *changes.Unit
	actor Actor
}

// commit describes the step's commit, deciding its actor once.
func (w *walkStep) commit() (*Commit, error) {
	if w.n.commit != nil {
		return w.n.commit, nil
	}
	c := w.u.Commit
	out := &Commit{Hash: c.Hash, Date: c.CommitterTime, AuthorDate: c.AuthorTime, Author: c.Author, Committer: c.Committer, Boundary: w.n.Boundary}
	if !w.n.Boundary {
		v, err := w.actor(w.u)
		if err != nil {
			return nil, err
		}
		out.Verdict = v
	}
	w.n.commit = out
	return out, nil
}

// version builds the version of a ledger file that the step's commit
// holds, from the versions its parents hold (nil where a parent lacks the
// file).
func (w *walkStep) version(kind Kind, ch *changes.Change, olds []*version) (*version, error) {
	if v := w.appended(kind, ch, olds); v != nil {
		_, err := w.commit()
		return v, err
	}
	d, err := decodeVersion(kind, ch.New)
	if err != nil {
		v := &version{kind: kind, hash: ch.New.Hash, err: err}
		for _, o := range olds {
			if o != nil {
				v.slots, v.doc, v.top = o.slots, o.doc, o.top
				break
			}
		}
		return v, nil
	}
	v := &version{kind: kind, hash: ch.New.Hash, doc: d.doc, top: d.top, slots: w.slots(kind, d, olds)}
	n := len(v.slots)
	v.claimed = &n
	for _, s := range v.slots {
		if s.commit == w.n || s.rename != nil && s.rename.commit == w.n {
			if _, err := w.commit(); err != nil {
				return nil, err
			}
			break
		}
	}
	if kind == Provenance && len(olds) <= 1 {
		var prev *version
		if len(olds) == 1 && olds[0] != nil && olds[0].err == nil {
			prev = olds[0]
		}
		if err := w.checkMetadata(ch.Path, prev, v); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// appended is the version of a progress file that the commit only
// appended to, proved from the bytes alone (yamldoc.ProveAppend): the
// earlier version's entries and the new ones decoded; nil when the proof
// does not go through.
func (w *walkStep) appended(kind Kind, ch *changes.Change, olds []*version) *version {
	if kind != Progress || len(olds) != 1 || ch.Merge != nil {
		return nil
	}
	old := olds[0]
	if old == nil || old.err != nil || ch.Old == nil || ch.Old.Hash != old.hash || ch.Old.Regular() != nil || ch.New.Regular() != nil {
		return nil
	}
	if old.end == nil {
		old.end = yamldoc.FindSequenceEnd(ch.Old.Data, "entries")
	}
	app := yamldoc.ProveAppend(old.end, ch.Old.Data, ch.New.Data)
	if app == nil {
		return nil
	}
	items, _ := app.Items.Value.([]any)
	more := make([]slot, len(items))
	for i, item := range items {
		more[i] = slot{value: item, line: app.Items.Line(fmt.Sprint(i)), commit: w.n, origin: Appended}
	}
	slots, claimed := old.grow(more)
	return &version{kind: kind, hash: ch.New.Hash, slots: slots, claimed: claimed, end: app.End}
}

// slots works out which commit recorded each entry of a decoded version:
// an entry aligned with an entry of a parent's version keeps the commit
// that recorded it there (the earliest, when several parents hold it);
// any other entry was recorded by this commit.
func (w *walkStep) slots(kind Kind, d *decoded, olds []*version) []slot {
	out := make([]slot, len(d.values))
	for j := range out {
		out[j] = slot{value: d.values[j], line: d.lines[j]}
	}
	lastKept, longest, dropped, seen := -1, 0, false, false
	for _, o := range olds {
		if o == nil {
			continue
		}
		seen = true
		longest = max(longest, len(o.slots))
		from, renamed := align(kind, o.values(), d.values)
		kept := 0
		for j, i := range from {
			if i < 0 {
				continue
			}
			kept++
			lastKept = max(lastKept, j)
			if s := o.slots[i]; out[j].commit == nil || s.commit.index < out[j].commit.index {
				out[j].commit, out[j].origin, out[j].rename = s.commit, s.origin, s.rename
				if renamed != nil && renamed[j] {
					out[j].rename = &rename{commit: w.n, from: claimOf(kind, s.value).TaskID}
				}
			}
		}
		dropped = dropped || kept < len(o.slots)
	}
	for j := range out {
		if out[j].commit != nil {
			continue
		}
		out[j].commit = w.n
		switch {
		case !seen && w.n.Boundary:
			out[j].origin = BeforeHistory
		case !seen:
			out[j].origin = WithFile
		case j < lastKept || dropped && j < longest:
			out[j].origin = Inserted
		default:
			out[j].origin = Appended
		}
	}
	return out
}

// grow returns v's slots followed by more, sharing v's backing array when
// no other version has grown it past v's length, and the marker of how
// far that array is in use.
func (v *version) grow(more []slot) ([]slot, *int) {
	n := len(v.slots)
	if v.claimed != nil && *v.claimed == n && cap(v.slots)-n >= len(more) {
		*v.claimed = n + len(more)
		return append(v.slots, more...), v.claimed
	}
	out := make([]slot, n, 2*(n+len(more)))
	copy(out, v.slots)
	out = append(out, more...)
	claimed := len(out)
	return out, &claimed
}
