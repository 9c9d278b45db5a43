package rules

// Cache keeps values derived from blobs (decoded documents, parsed entries)
// for the length of one run, so that a blob shared by many commits of a
// range is decoded once.
type Cache struct {
	values map[string]any
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{values: map[string]any{}}
}

func (c *Cache) get(key string, build func() any) any {
	if v, ok := c.values[key]; ok {
		return v
	}
	v := build()
	c.values[key] = v
	return v
}
