// Package persistent holds Map, a map that is never changed once made: With and Without return a new map that shares with
// the old one every part they leave alone, so that keeping many versions
// of a large map costs what changed between them, not a copy of each, and
// Diff finds what changed between two versions by skipping what they
// share.
//
// A Map is a hash array mapped trie: keys are hashed (with hash/maphash,
// seeded per family of maps, so that no key can be chosen to collide), and
// each level of the trie takes five bits of the hash.
package persistent

import (
	"hash/maphash"
	"math/bits"
	"slices"
)

// Map is a map from keys of type K to values of type V. The zero Map is
// not usable: start from New and derive every other version from it.
type Map[K, V comparable] struct {
	seed maphash.Seed
	root *node[K, V]
	size int
}

// New returns an empty Map. Maps that Diff compares must derive from the
// same New.
func New[K, V comparable]() Map[K, V] {
	return Map[K, V]{seed: maphash.MakeSeed()}
}

// node is an inner node of the trie (children, one for each bit set in
// present) or a leaf (the entries whose keys have the hash hash).
type node[K, V comparable] struct {
	present  uint32
	children []*node[K, V]
	leaf     bool
	hash     uint64
	entries  []entry[K, V]
}

type entry[K, V comparable] struct {
	key   K
	value V
}

// bitsPerLevel is how many bits of the hash each level of the trie takes.
const bitsPerLevel = 5

// Len returns the number of keys.
func (m Map[K, V]) Len() int { return m.size }

// Get returns the value of key, and whether m holds it.
func (m Map[K, V]) Get(key K) (V, bool) {
	h := maphash.Comparable(m.seed, key)
	n := m.root
	for shift := 0; n != nil && !n.leaf; shift += bitsPerLevel {
		bit := uint32(1) << (h >> shift & 31)
		if n.present&bit == 0 {
			n = nil
			break
		}
		n = n.children[bits.OnesCount32(n.present&(bit-1))]
	}
	if n != nil && n.hash == h {
		for _, e := range n.entries {
			if e.key == key {
				return e.value, true
			}
		}
	}
	var zero V
	return zero, false
}

// With returns m with key mapped to value.
func (m Map[K, V]) With(key K, value V) Map[K, V] {
	h := maphash.Comparable(m.seed, key)
	root, added := with(m.root, h, 0, entry[K, V]{key, value})
	m.root = root
	if added {
		m.size++
	}
	return m
}

// with returns n with e put in, and whether its key is new.
func with[K, V comparable](n *node[K, V], h uint64, shift int, e entry[K, V]) (*node[K, V], bool) {
	switch {
	case n == nil:
		return &node[K, V]{leaf: true, hash: h, entries: []entry[K, V]{e}}, true
	case n.leaf && n.hash == h:
		out := &node[K, V]{leaf: true, hash: h, entries: slices.Clone(n.entries)}
		for i := range out.entries {
			if out.entries[i].key == e.key {
				out.entries[i] = e
				return out, false
			}
		}
		out.entries = append(out.entries, e)
		return out, true
	case n.leaf:
		// Two hashes at one place: an inner node tells them apart.
		inner := &node[K, V]{present: 1 << (n.hash >> shift & 31), children: []*node[K, V]{n}}
		return with(inner, h, shift, e)
	}
	bit := uint32(1) << (h >> shift & 31)
	at := bits.OnesCount32(n.present & (bit - 1))
	out := &node[K, V]{present: n.present | bit}
	if n.present&bit != 0 {
		child, added := with(n.children[at], h, shift+bitsPerLevel, e)
		out.children = slices.Clone(n.children)
		out.children[at] = child
		return out, added
	}
	out.children = slices.Insert(slices.Clip(n.children), at, &node[K, V]{leaf: true, hash: h, entries: []entry[K, V]{e}})
	return out, true
}

// Without returns m without key.
func (m Map[K, V]) Without(key K) Map[K, V] {
	h := maphash.Comparable(m.seed, key)
	root, removed := without(m.root, h, 0, key)
	if removed {
		m.root = root
		m.size--
	}
	return m
}

// without returns n with key taken out (nil when nothing is left), and
// whether it was there. An inner node left with a single leaf becomes
// that leaf, so that a map's shape depends on its keys alone.
func without[K, V comparable](n *node[K, V], h uint64, shift int, key K) (*node[K, V], bool) {
	switch {
	case n == nil:
		return nil, false
	case n.leaf:
		i := slices.IndexFunc(n.entries, func(e entry[K, V]) bool { return e.key == key })
		if n.hash != h || i < 0 {
			return n, false
		}
		if len(n.entries) == 1 {
			return nil, true
		}
		return &node[K, V]{leaf: true, hash: h, entries: slices.Delete(slices.Clone(n.entries), i, i+1)}, true
	}
	bit := uint32(1) << (h >> shift & 31)
	if n.present&bit == 0 {
		return n, false
	}
	at := bits.OnesCount32(n.present & (bit - 1))
	child, removed := without(n.children[at], h, shift+bitsPerLevel, key)
	if !removed {
		return n, false
	}
	out := &node[K, V]{present: n.present, children: slices.Clone(n.children)}
	if child == nil {
		out.present &^= bit
		out.children = slices.Delete(out.children, at, at+1)
	} else {
		out.children[at] = child
	}
	switch {
	case len(out.children) == 0:
		return nil, true
	case len(out.children) == 1 && out.children[0].leaf:
		return out.children[0], true
	}
	return out, true
}

// All calls yield with every key and its value, in no particular order,
// until it returns false.
func (m Map[K, V]) All(yield func(K, V) bool) {
	each(m.root, yield)
}

func each[K, V comparable](n *node[K, V], yield func(K, V) bool) bool {
	if n == nil {
		return true
	}
	if n.leaf {
		for _, e := range n.entries {
			if !yield(e.key, e.value) {
				return false
			}
		}
		return true
	}
	for _, c := range n.children {
		if !each(c, yield) {
			return false
		}
	}
	return true
}

// Diff calls changed, once each, with every key that a and b (which must
// derive from the same New) do not map to the same value: held by one of
// them only, or mapped to different values. It skips every part the two
// share, so that its cost follows what changed between them.
func Diff[K, V comparable](a, b Map[K, V], changed func(key K)) {
	seen := map[K]bool{}
	diff(a.root, b.root, func(key K) {
		if seen[key] {
			return
		}
		seen[key] = true
		va, oka := a.Get(key)
		vb, okb := b.Get(key)
		if oka != okb || va != vb {
			changed(key)
		}
	})
}

// diff calls maybe with every key of the parts of x and y that are not the
// same node, at the same level.
func diff[K, V comparable](x, y *node[K, V], maybe func(key K)) {
	switch {
	case x == y:
	case x == nil || y == nil || x.leaf || y.leaf:
		for _, n := range []*node[K, V]{x, y} {
			each(n, func(key K, _ V) bool {
				maybe(key)
				return true
			})
		}
	default:
		for bit := uint32(1); bit != 0; bit <<= 1 {
			diff(child(x, bit), child(y, bit), maybe)
		}
	}
}

// child returns the child of inner node n at bit, nil for none.
func child[K, V comparable](n *node[K, V], bit uint32) *node[K, V] {
	if n.present&bit == 0 {
		return nil
	}
	return n.children[bits.OnesCount32(n.present&(bit-1))]
}
