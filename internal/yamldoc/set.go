package yamldoc

// Set holds decoded values for lookups by equality (Equal), each lookup a
// hash probe: asking whether each of n values is among m costs about n+m
// comparisons, not n×m.
type Set struct {
	c  *Comparer
	by map[uint64][]any
}

// Set returns the set of values, compared as c compares.
func (c *Comparer) Set(values []any) *Set {
	s := &Set{c: c, by: make(map[uint64][]any, len(values))}
	for _, v := range values {
		h := c.eq.hashes.sum(v)
		s.by[h] = append(s.by[h], v)
	}
	return s
}

// Has reports whether the set holds a value equal to v.
func (s *Set) Has(v any) bool {
	for _, x := range s.by[s.c.eq.hashes.sum(v)] {
		if s.c.eq.equal(v, x) {
			return true
		}
	}
	return false
}
