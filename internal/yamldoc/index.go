package yamldoc

import "slices"

// Index holds the positions of a list of values by their sums (see
// Comparer.Sum): the values equal to one are found among the few that
// share its sum, in about the logarithm of the list's length, where
// comparing it with each would take the length of the list.
type Index struct {
	cmp  *Comparer
	list []any
	at   map[uint64][]int
}

// Index indexes list.
func (c *Comparer) Index(list []any) *Index {
	x := &Index{cmp: c, list: list, at: map[uint64][]int{}}
	for i, v := range list {
		sum := c.Sum(v)
		x.at[sum] = append(x.at[sum], i)
	}
	return x
}

// First returns the first position at or after from whose value equals
// v, or -1.
func (x *Index) First(v any, from int) int {
	same := x.at[x.cmp.Sum(v)]
	k, _ := slices.BinarySearch(same, from)
	for ; k < len(same); k++ {
		if x.cmp.Equal(v, x.list[same[k]]) {
			return same[k]
		}
	}
	return -1
}
