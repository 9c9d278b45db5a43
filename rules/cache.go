package rules

import "sync"

// Cache keeps values derived from blobs (decoded documents, parsed entries)
// while they may still be asked for: a blob shared by consecutive commits
// of a range is decoded once, and values unused for a whole unit are
// dropped, so memory follows the size of one commit, not of the range. The
// rules of a unit ask from two goroutines (see Rule.Apart): each value is
// built once, by the first to ask, while the other waits for it.
type Cache struct {
	mu                sync.Mutex
	current, previous map[any]*cached
}

// cached is one value of the cache, built once.
type cached struct {
	once  sync.Once
	value any
}

// newCache returns an empty cache.
func newCache() *Cache {
	return &Cache{current: map[any]*cached{}, previous: map[any]*cached{}}
}

// next starts a new unit: what the last unit did not use is dropped.
func (c *Cache) next() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.previous, c.current = c.current, map[any]*cached{}
}

// nextSlice starts a new slice of the unit (see changes.Unit.Slices):
// what the last slice derived is dropped, and what the unit before left
// is kept for the slices still to come.
func (c *Cache) nextSlice() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.current = map[any]*cached{}
}

// get returns the value under key (a comparable value), building it with
// build if no one has. build may ask for other keys.
func (c *Cache) get(key any, build func() any) any {
	c.mu.Lock()
	v, ok := c.current[key]
	if !ok {
		if v, ok = c.previous[key]; !ok {
			v = &cached{}
		}
		c.current[key] = v
	}
	c.mu.Unlock()
	v.once.Do(func() { v.value = build() })
	return v.value
}
