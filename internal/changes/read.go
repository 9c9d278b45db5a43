package changes

import (
	"errors"
	"math"
	"slices"
)

// Loader reads the versions a unit leaves unread (Blob.Unread).
type Loader interface {
	// Read returns copies of the first changes of chs whose unread
	// versions it has read (versions held already are kept as they are):
	// as many as hold limit bytes of versions together, at least one, or
	// all of chs when they hold less. A version that appears twice in one
	// change (a merge's first parent is its Old) is read once, into one
	// copy; the changes of chs are left as they are.
	Read(chs []*Change, limit int) ([]Change, error)
}

// errNoLoader is the error of a unit that leaves versions unread and has
// no Loader to read them: a mistake of whoever built it.
var errNoLoader = errors.New("the unit leaves versions unread and has no loader to read them")

// EachSlice calls fn with each slice of u in turn (see Slices), holding
// its versions while fn runs. A unit that holds every version is cut as
// Slices cuts it. One that leaves versions unread is read group by group
// through its Loader, about budget bytes ahead of the slice being built,
// and cut as it is read, its slices in the order of their first change
// (which group is the largest is known only once all are read): memory
// then follows a slice and the reading ahead, not the unit. Such a slice's
// snapshots give its own versions of the paths it changes (Files the new,
// Before the old) and remember what else is read of them until fn
// returns, so that a version is read once per slice.
func (u *Unit) EachSlice(budget int, fn func(*Unit) error) error {
	if !u.leavesUnread() {
		for _, s := range u.Slices(budget) {
			if err := fn(s.reading()); err != nil {
				return err
			}
		}
		return nil
	}
	if u.Loader == nil {
		return errNoLoader
	}
	var order []*Change
	var ends []int
	for _, m := range u.groups() {
		for _, i := range m {
			order = append(order, &u.Changes[i])
		}
		ends = append(ends, len(order))
	}
	// read holds the changes of order[from:from+len(read)], read.
	var read []Change
	from, bytes, biggest := 0, 0, 0
	flush := func(end int) error {
		n := end - from
		s := *u
		s.Changes = slices.Clone(read[:n])
		slices.SortFunc(s.Changes, byPath)
		s.Loader = nil
		err := fn(s.reading())
		rest := copy(read, read[n:])
		clear(read[rest:])
		read, from = read[:rest], end
		return err
	}
	start := 0
	for _, end := range ends {
		for from+len(read) < end {
			more, err := u.Loader.Read(order[from+len(read):], budget)
			if err != nil {
				return err
			}
			if len(more) == 0 {
				return errors.New("the unit's loader read nothing")
			}
			read = append(read, more...)
		}
		size := 0
		for i := start - from; i < end-from; i++ {
			size += read[i].Bytes()
		}
		if start > from && bytes+size-max(biggest, size) > budget {
			if err := flush(start); err != nil {
				return err
			}
			bytes, biggest = 0, 0
		}
		bytes, biggest = bytes+size, max(biggest, size)
		start = end
	}
	return flush(len(order))
}

// reading returns a copy of u whose snapshots give its own versions of
// the paths it changes and remember what else is read of them.
func (u *Unit) reading() *Unit {
	out := *u
	if u.Files != nil {
		out.Files = newReadSnapshot(u.Files, u.Changes, func(ch *Change) *Blob { return ch.New })
	}
	if u.Before != nil {
		out.Before = newReadSnapshot(u.Before, u.Changes, func(ch *Change) *Blob { return ch.Old })
	}
	return &out
}

// readSnapshot is a state of the repository as a slice that was read sees
// it: the versions the slice holds, and what it read of the rest.
type readSnapshot struct {
	Snapshot
	read map[string]*Blob
}

// newReadSnapshot is state as a slice whose changes are chs sees it:
// version gives each change's version in that state.
func newReadSnapshot(state Snapshot, chs []Change, version func(*Change) *Blob) *readSnapshot {
	s := &readSnapshot{Snapshot: state, read: make(map[string]*Blob, len(chs))}
	for i := range chs {
		s.read[chs[i].Path] = version(&chs[i])
	}
	return s
}

func (s *readSnapshot) Read(path string) (*Blob, error) {
	if b, ok := s.read[path]; ok {
		return b, nil
	}
	b, err := s.Snapshot.Read(path)
	if err == nil {
		s.read[path] = b
	}
	return b, err
}

// ReadAll reads every version u leaves unread, for a caller that looks at
// the whole unit at once.
func (u *Unit) ReadAll() error {
	if !u.leavesUnread() {
		return nil
	}
	if u.Loader == nil {
		return errNoLoader
	}
	all := make([]*Change, len(u.Changes))
	for i := range u.Changes {
		all[i] = &u.Changes[i]
	}
	read, err := u.Loader.Read(all, math.MaxInt)
	if err != nil {
		return err
	}
	if len(read) != len(u.Changes) {
		return errors.New("the unit's loader left changes unread")
	}
	u.Changes = read
	return nil
}

// eachRead calls fn with each change of chs, in order, its versions read
// (through u's Loader, about limit bytes at a time, for changes that leave
// any unread); k is the change's place in chs.
func (u *Unit) eachRead(chs []*Change, limit int, fn func(k int, ch *Change)) error {
	for k := 0; k < len(chs); {
		if !chs[k].leavesUnread() {
			fn(k, chs[k])
			k++
			continue
		}
		if u.Loader == nil {
			return errNoLoader
		}
		read, err := u.Loader.Read(chs[k:], limit)
		if err != nil {
			return err
		}
		if len(read) == 0 {
			return errors.New("the unit's loader read nothing")
		}
		for i := range read {
			fn(k+i, &read[i])
		}
		k += len(read)
	}
	return nil
}

// leavesUnread reports whether a change of u leaves a version unread.
func (u *Unit) leavesUnread() bool {
	return slices.ContainsFunc(u.Changes, func(ch Change) bool { return ch.leavesUnread() })
}

// leavesUnread reports whether a version of ch is unread.
func (ch *Change) leavesUnread() bool {
	unread := false
	ch.eachVersion(func(b *Blob) {
		unread = unread || b.Unread
	})
	return unread
}

// eachVersion calls fn with every version ch holds, each once: New, Old,
// and for a merge every merge base and parent, and the version it was
// moved onto.
func (ch *Change) eachVersion(fn func(*Blob)) {
	var seen []*Blob
	visit := func(b *Blob) {
		if b != nil && !slices.Contains(seen, b) {
			seen = append(seen, b)
			fn(b)
		}
	}
	visit(ch.New)
	visit(ch.Old)
	if m := ch.Merge; m != nil {
		visit(m.Base)
		for _, b := range m.Bases {
			visit(b)
		}
		for _, b := range m.Parents {
			visit(b)
		}
		visit(m.Onto)
	}
}

// MapVersions returns a copy of ch whose versions are what f returns for
// them: f is called once for each version that is not absent, New first,
// then Old, then a merge's bases, parents and Onto, and a version that appears
// twice (a merge's first parent is its Old, its Base its first of Bases)
// is replaced by the same result both times. The copy has a Merge of its
// own; ch is left as it is.
func (ch Change) MapVersions(f func(*Blob) (*Blob, error)) (Change, error) {
	type pair struct{ from, to *Blob }
	var done []pair
	var firstErr error
	mapped := func(b *Blob) *Blob {
		if b == nil || firstErr != nil {
			return b
		}
		for _, p := range done {
			if p.from == b {
				return p.to
			}
		}
		r, err := f(b)
		if err != nil {
			firstErr = err
			return b
		}
		done = append(done, pair{b, r})
		return r
	}
	out := ch
	out.New = mapped(ch.New)
	out.Old = mapped(ch.Old)
	if m := ch.Merge; m != nil {
		out.Merge = &Merge{Base: mapped(m.Base), Bases: make([]*Blob, len(m.Bases)), Parents: make([]*Blob, len(m.Parents))}
		for i, b := range m.Bases {
			out.Merge.Bases[i] = mapped(b)
		}
		for i, b := range m.Parents {
			out.Merge.Parents[i] = mapped(b)
		}
		out.Merge.Onto = mapped(m.Onto)
	}
	return out, firstErr
}
