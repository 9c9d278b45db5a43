package changes

import (
	"slices"

	"github.com/small-hook/small-hook/internal/workspace"
)

// Slices splits u into units that each hold the changes of whole groups
// (a group is one workspace's changes: see groupOf), taken in the order
// of their first change: one group of any size, and other groups of
// together at most budget bytes of versions (see size). A slice's memory
// then follows its largest file plus the budget; a unit whose changes fit
// so is its own only slice (the commits of a range usually are, which
// keeps what the rules derived from one commit for the next). Otherwise
// the slice that holds the largest group comes last: a checker keeps what
// it derived from the last slice for the next unit of a range, which
// compares with the versions this one adds. Each slice shares u's mode,
// commit, snapshots, ref and declarations, and holds its changes in path
// order. Locate must have placed the changes.
func (u *Unit) Slices(budget int) []*Unit {
	members := u.groups()
	sizes := make([]int, len(members))
	total, largest := 0, 0
	for k, m := range members {
		for _, i := range m {
			sizes[k] += u.Changes[i].Bytes()
		}
		total += sizes[k]
		if sizes[k] > sizes[largest] {
			largest = k
		}
	}
	if len(members) <= 1 || total-sizes[largest] <= budget {
		return []*Unit{u}
	}
	var out []*Unit
	var picked []int
	bytes, biggest, last := 0, 0, 0
	flush := func() {
		slices.Sort(picked)
		s := *u
		if first, end := picked[0], picked[len(picked)-1]; end-first+1 == len(picked) {
			s.Changes = u.Changes[first : end+1 : end+1] // a run of u's changes: shared, not copied
		} else {
			s.Changes = make([]Change, len(picked))
			for j, i := range picked {
				s.Changes[j] = u.Changes[i]
			}
		}
		out = append(out, &s)
		picked, bytes, biggest = nil, 0, 0
	}
	for k, m := range members {
		if len(picked) > 0 && bytes+sizes[k]-max(biggest, sizes[k]) > budget {
			flush()
		}
		if k == largest {
			last = len(out)
		}
		picked = append(picked, m...)
		bytes, biggest = bytes+sizes[k], max(biggest, sizes[k])
	}
	flush()
	s := out[last]
	return append(slices.Delete(out, last, last+1), s)
}

// groups returns the changes of each group of u (see group), by index,
// the groups in the order of their first change.
func (u *Unit) groups() [][]int {
	index := map[group]int{}
	var members [][]int
	for i := range u.Changes {
		g := groupOf(&u.Changes[i])
		k, ok := index[g]
		if !ok {
			k = len(members)
			index[g] = k
			members = append(members, nil)
		}
		members[k] = append(members[k], i)
	}
	return members
}

// group is what a rule that judges each workspace on its own needs to see
// together: the changes to one SMALL workspace's files (the folded
// spellings of their paths included), which its rules compare with each
// other (a handoff with its plan, the required files); any other change
// (a knowledge artifact, a file of .awp/, a file no workspace governs)
// alone: an artifact is judged by itself, reading what else it needs from
// the unit's snapshots.
type group struct {
	ws   workspace.Workspace
	path string
}

// groupOf is the group of a placed change.
func groupOf(ch *Change) group {
	if ch.Place.Governed() && ch.Place.Area == workspace.Files {
		return group{ws: ch.Place.Workspace}
	}
	return group{path: ch.Path}
}

// Bytes is how many bytes of versions ch holds: what judging it decodes,
// and so what the memory of judging it follows.
func (ch *Change) Bytes() int {
	n := 0
	ch.eachVersion(func(b *Blob) { n += len(b.Data) })
	return n
}
