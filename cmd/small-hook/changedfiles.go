package main

import (
	"slices"

	"github.com/small-hook/small-hook/internal/changes"
)

// changedFiles counts the distinct paths the units of a check change, for
// its summary. The first unit's paths are kept as a sorted list, a string
// header each, and only the paths of later units that it does not hold go
// to a set: a staged commit of 60,000 files (one unit) costs a megabyte
// instead of the several a set of its paths takes, and a range, whose
// commits change the same paths again, counts each once.
type changedFiles struct {
	first []string
	later map[string]bool
	units int
}

// add counts the paths u changes.
func (f *changedFiles) add(u *changes.Unit) {
	f.units++
	if f.units == 1 {
		f.first = make([]string, 0, len(u.Changes))
		for _, ch := range u.Changes {
			f.first = append(f.first, ch.Path)
		}
		slices.Sort(f.first)
		f.first = slices.Clip(slices.Compact(f.first))
		return
	}
	for _, ch := range u.Changes {
		if _, found := slices.BinarySearch(f.first, ch.Path); found {
			continue
		}
		if f.later == nil {
			f.later = map[string]bool{}
		}
		f.later[ch.Path] = true
	}
}

// count is the number of distinct paths.
func (f *changedFiles) count() int {
	return len(f.first) + len(f.later)
}
