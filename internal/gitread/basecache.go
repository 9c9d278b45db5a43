package gitread

// baseCacheBudget bounds the bytes of objects kept as delta bases.
const baseCacheBudget = 16 << 20

// baseCache keeps objects that chains of deltas produced, by pack and
// offset, up to a budget of bytes; the oldest go first.
type baseCache struct {
	budget  int
	used    int
	objects map[baseKey]baseObject
	order   []baseKey
}

type baseKey struct {
	pack *pack
	off  uint64
}

type baseObject struct {
	kind int
	data []byte
}

func (c *baseCache) get(p *pack, off uint64) (int, []byte, bool) {
	o, ok := c.objects[baseKey{p, off}]
	return o.kind, o.data, ok
}

// put keeps an object unless it would take more than a quarter of the
// budget.
func (c *baseCache) put(p *pack, off uint64, kind int, data []byte) {
	k := baseKey{p, off}
	if len(data) > c.budget/4 {
		return
	}
	if _, ok := c.objects[k]; ok {
		return
	}
	if c.objects == nil {
		c.objects = map[baseKey]baseObject{}
	}
	for c.used+len(data) > c.budget && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.used -= len(c.objects[old].data)
		delete(c.objects, old)
	}
	c.objects[k] = baseObject{kind, data}
	c.order = append(c.order, k)
	c.used += len(data)
}
