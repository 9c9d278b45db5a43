package yamldoc

import (
	"hash/maphash"
	"math"
	"math/big"
	"math/bits"
)

// Comparer compares many decoded values with each other, with the result
// of Equal, and remembers what it learns across calls: a structural hash
// of every container it meets (computed once each, so two values that
// differ anywhere are usually told apart by one comparison of hashes) and
// the result for every pair of large containers it has compared. Use one
// for a batch of comparisons among the same documents, such as looking up
// every old entry in a new list: the cost then follows the documents'
// sizes, not the number of comparisons times their expansion.
//
// A Comparer keeps every container it has seen alive; drop it with them.
// It is not safe for concurrent use.
type Comparer struct {
	eq equality
	// comparisons counts the calls of Equal.
	comparisons int
}

// NewComparer returns an empty Comparer.
func NewComparer() *Comparer {
	return &Comparer{eq: equality{hashes: &hasher{seed: maphash.MakeSeed(), sums: map[containerID]hashed{}}}}
}

// Equal reports whether a and b are equal values, as Equal does.
func (c *Comparer) Equal(a, b any) bool {
	c.comparisons++
	return c.eq.hashes.sum(a) == c.eq.hashes.sum(b) && c.eq.equal(a, b)
}

// Comparisons returns how many pairs of values c has compared: the work
// of a batch of look-ups, which the work budget's tests count as the
// input grows.
func (c *Comparer) Comparisons() int { return c.comparisons }

// Sum returns a structural hash of v that agrees with Equal: equal values
// have equal sums, so that values can be indexed by their sums and an
// equal one found among few candidates.
func (c *Comparer) Sum(v any) uint64 { return c.eq.hashes.sum(v) }

// SumExcept is Sum with the value of key, when v is a mapping that has
// it, taken for null: mappings that differ only there have equal sums.
func (c *Comparer) SumExcept(v any, key string) uint64 {
	m, ok := v.(map[string]any)
	if !ok {
		return c.Sum(v)
	}
	if _, has := m[key]; !has {
		return c.Sum(v)
	}
	return c.eq.hashes.mapping(m, key)
}

// hasher computes structural hashes that agree with Equal: equal values
// have equal hashes. It remembers each container's hash by the container's
// address, and keeps the container so that the address is not reused.
type hasher struct {
	seed maphash.Seed
	sums map[containerID]hashed
}

type hashed struct {
	sum uint64
	// container pins the container whose address keys this hash.
	container any
}

// Arbitrary constants that keep the hashes of different kinds apart.
const (
	mappingSeed  uint64 = 0x6a09e667f3bcc908
	sequenceSeed uint64 = 0xbb67ae8584caa73b
	trueSum             = 0x3c6ef372fe94f82b
	falseSum            = 0xa54ff53a5f1d36f1
	nullSum             = 0x510e527fade682d1
	otherSum            = 0x9b05688c2b3e6c1f
)

func (h *hasher) sum(v any) uint64 {
	switch v := v.(type) {
	case map[string]any:
		id := mapID(v)
		if s, ok := h.sums[id]; ok {
			return s.sum
		}
		return h.remember(id, h.mapping(v, ""), v)
	case []any:
		id := sliceID(v)
		if s, ok := h.sums[id]; ok {
			return s.sum
		}
		sum := sequenceSeed + uint64(len(v))
		for _, x := range v {
			sum = mix(sum ^ h.sum(x))
		}
		return h.remember(id, sum, v)
	case string:
		return maphash.String(h.seed, v)
	case bool:
		if v {
			return trueSum
		}
		return falseSum
	case nil:
		return nullSum
	case Timestamp:
		return mix(uint64(v.Time.Unix())) ^ uint64(v.Time.Nanosecond())
	case int64:
		return mix(uint64(v))
	case *big.Int:
		if v.IsInt64() {
			return mix(uint64(v.Int64()))
		}
		return mix(maphash.Bytes(h.seed, v.Bytes()) + uint64(v.Sign()))
	case float64:
		return h.float(v)
	}
	return otherSum
}

// mapping hashes a mapping, the value of except (unless "") taken for
// null.
func (h *hasher) mapping(m map[string]any, except string) uint64 {
	sum := mappingSeed + uint64(len(m))
	for k, x := range m {
		v := uint64(nullSum)
		if except == "" || k != except {
			v = h.sum(x)
		}
		// A sum of mixed pairs does not depend on the keys' order.
		sum += mix(maphash.String(h.seed, k) ^ bits.RotateLeft64(v, 29))
	}
	return mix(sum)
}

// float hashes a number as Equal sees it: an integral float as the
// integer it equals.
func (h *hasher) float(f float64) uint64 {
	switch {
	case f != math.Trunc(f) || math.IsInf(f, 0):
		return mix(math.Float64bits(f))
	case f >= -(1<<63) && f < 1<<63:
		return mix(uint64(int64(f)))
	}
	i, _ := new(big.Float).SetFloat64(f).Int(nil)
	return h.sum(i)
}

// remember keeps the hash of a container. Empty containers have no
// address and are not remembered.
func (h *hasher) remember(id containerID, sum uint64, container any) uint64 {
	if id.addr != 0 {
		h.sums[id] = hashed{sum: sum, container: container}
	}
	return sum
}

// mix is the finaliser of SplitMix64: every input bit affects every
// output bit.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
