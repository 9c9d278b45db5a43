package yamldoc

import (
	"math/big"
	"reflect"
	"sort"
)

// memoMin is the size from which a pair of containers compared once is
// not compared again: smaller ones cost less to compare than to remember.
const memoMin = 16

// Equal compares two decoded YAML values as values: key order, quoting and
// layout do not matter; numbers compare exactly (1 and 1.0 are equal,
// 12345678901234567890 and 12345678901234567891 are not); timestamps
// compare as instants. Values of types Decode never produces are never
// equal.
//
// Its cost follows the documents' text, not their expansion: a container
// shared by both sides (an anchored value and its aliases) is equal to
// itself without a look inside, and a pair of large containers is compared
// once per call however often it recurs. Scalars are compared before
// containers, so two mappings that differ in a scalar are told apart
// without descending. To compare many values with each other, use a
// Comparer, which also remembers across calls.
func Equal(a, b any) bool {
	var e equality
	return e.equal(a, b)
}

// ChangedKeys lists the keys whose values differ between two mappings.
func ChangedKeys(a, b any) []string {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		return nil
	}
	var e equality
	var keys []string
	for k, av := range am {
		if bv, ok := bm[k]; !ok || !e.equal(av, bv) {
			keys = append(keys, k)
		}
	}
	for k := range bm {
		if _, ok := am[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// equality is one comparison's memory: the pairs of large containers it
// has compared and, for a Comparer, the containers' hashes.
type equality struct {
	seen   map[pairKey]bool
	hashes *hasher
}

// containerID names a container by the address of its storage and its
// length (a shorter slice of the same storage is another sequence). An
// address is only meaningful while the container is alive: during one
// Equal call, or pinned by a Comparer's hasher. Empty containers have
// address 0.
type containerID struct {
	addr uintptr
	n    int
}

// pairKey names a pair of containers of the same length.
type pairKey struct {
	a, b containerID
}

func (e *equality) equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		k := pairKey{mapID(a), mapID(b)}
		if r, known := e.known(k); known {
			return r
		}
		if e.hashes != nil && e.hashes.sum(a) != e.hashes.sum(b) {
			return false
		}
		return e.remember(k, e.mappings(a, b))
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		k := pairKey{sliceID(a), sliceID(b)}
		if r, known := e.known(k); known {
			return r
		}
		if e.hashes != nil && e.hashes.sum(a) != e.hashes.sum(b) {
			return false
		}
		return e.remember(k, e.sequences(a, b))
	case string:
		b, ok := b.(string)
		return ok && a == b
	case bool:
		b, ok := b.(bool)
		return ok && a == b
	case nil:
		return b == nil
	case Timestamp:
		b, ok := b.(Timestamp)
		return ok && a.Time.Equal(b.Time)
	case int64, *big.Int, float64:
		eq, _ := numbersEqual(a, b)
		return eq
	}
	return false
}

// known returns what is already known of a pair: a container is equal to
// itself, and a large pair may have been compared before.
func (e *equality) known(k pairKey) (equal, ok bool) {
	if k.a == k.b && k.a.addr != 0 {
		return true, true
	}
	if k.a.n < memoMin || e.seen == nil {
		return false, false
	}
	equal, ok = e.seen[k]
	return equal, ok
}

func (e *equality) remember(k pairKey, equal bool) bool {
	if k.a.n >= memoMin {
		if e.seen == nil {
			e.seen = map[pairKey]bool{}
		}
		e.seen[k] = equal
	}
	return equal
}

// mappings compares two mappings of the same size, scalars first: two
// different entries usually differ in one, and then their containers are
// never looked into.
func (e *equality) mappings(a, b map[string]any) bool {
	for k, av := range a {
		bv, ok := b[k]
		if !ok || !isContainer(av) && !e.equal(av, bv) {
			return false
		}
	}
	for k, av := range a {
		if isContainer(av) && !e.equal(av, b[k]) {
			return false
		}
	}
	return true
}

// sequences compares two sequences of the same length, scalars first.
func (e *equality) sequences(a, b []any) bool {
	for i, av := range a {
		if !isContainer(av) && !e.equal(av, b[i]) {
			return false
		}
	}
	for i, av := range a {
		if isContainer(av) && !e.equal(av, b[i]) {
			return false
		}
	}
	return true
}

func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// mapID names a mapping: the same for two values that share it.
func mapID(m map[string]any) containerID {
	return containerID{addr: reflect.ValueOf(m).Pointer(), n: len(m)}
}

// sliceID names a sequence: the same for two values that share it.
func sliceID(s []any) containerID {
	if len(s) == 0 {
		return containerID{}
	}
	return containerID{addr: reflect.ValueOf(&s[0]).Pointer(), n: len(s)}
}
