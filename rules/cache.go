package rules

// Cache keeps values derived from blobs (decoded documents, parsed entries)
// while they may still be asked for: a blob shared by consecutive commits
// of a range is decoded once, and values unused for a whole unit are
// dropped, so memory follows the size of one commit, not of the range.
type Cache struct {
	current, previous map[string]any
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{current: map[string]any{}, previous: map[string]any{}}
}

// next starts a new unit: what the last unit did not use is dropped.
func (c *Cache) next() {
	c.previous, c.current = c.current, map[string]any{}
}

func (c *Cache) get(key string, build func() any) any {
	if v, ok := c.current[key]; ok {
		return v
	}
	v, ok := c.previous[key]
	if !ok {
		v = build()
	}
	c.current[key] = v
	return v
}

// has reports whether a value is cached under key.
func (c *Cache) has(key string) bool {
	_, now := c.current[key]
	_, before := c.previous[key]
	return now || before
}
