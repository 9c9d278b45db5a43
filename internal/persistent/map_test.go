package persistent

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"github.com/small-hook/small-hook/internal/budgettest"
)

// FuzzMap applies a sequence of changes to a Map and to a Go map, keeping
// every version: each version holds what its Go map holds, and Diff
// between any two finds exactly the keys their Go maps disagree on.
func FuzzMap(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 0x81, 4, 0x82, 5})
	f.Add([]byte{7, 7, 7, 0x87, 0x87, 7})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x85, 0x83, 0x89, 0x81})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 200 {
			return
		}
		m := New[string, int]()
		want := map[string]int{}
		var versions []Map[string, int]
		var wants []map[string]int
		for i, op := range ops {
			key := fmt.Sprintf("k%d", op&0x3f)
			if op&0x80 != 0 {
				m = m.Without(key)
				delete(want, key)
			} else {
				m = m.With(key, i)
				want[key] = i
			}
			versions, wants = append(versions, m), append(wants, maps.Clone(want))
		}
		for v, m := range versions {
			if got := collect(m); !maps.Equal(got, wants[v]) || m.Len() != len(wants[v]) {
				t.Fatalf("version %d holds %v (%d), want %v", v, got, m.Len(), wants[v])
			}
			for key, value := range wants[v] {
				if got, ok := m.Get(key); !ok || got != value {
					t.Fatalf("version %d: %s is %d, %v; want %d", v, key, got, ok, value)
				}
			}
			if _, ok := m.Get("absent"); ok {
				t.Fatalf("version %d holds a key never put in", v)
			}
		}
		for a := range versions {
			for b := a; b < len(versions); b += 1 + len(versions)/8 {
				var got []string
				Diff(versions[a], versions[b], func(key string) { got = append(got, key) })
				var want []string
				for key := range keys(wants[a], wants[b]) {
					va, oka := wants[a][key]
					vb, okb := wants[b][key]
					if oka != okb || va != vb {
						want = append(want, key)
					}
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("Diff of versions %d and %d: %v, want %v", a, b, got, want)
				}
			}
		}
	})
}

func collect(m Map[string, int]) map[string]int {
	out := map[string]int{}
	m.All(func(k string, v int) bool {
		out[k] = v
		return true
	})
	return out
}

// keys is the union of the keys of a and b.
func keys(a, b map[string]int) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// TestVersionsShareWhatTheyDoNotChange is the work budget of keeping
// versions: a change to a map of n keys makes a few nodes, however large
// the map, and Diff between two versions reads what changed, not the
// maps. Doubling the map and the changes may double the bytes they
// allocate, no more (a copy per version grows with map × changes).
func TestVersionsShareWhatTheyDoNotChange(t *testing.T) {
	var input, work [2]float64
	for k, n := range []int{20_000, 40_000} {
		m := New[string, int]()
		for i := range n {
			m = m.With(fmt.Sprintf("ws%05d/.small/progress.small.yml", i), i)
		}
		input[k] = float64(n)
		work[k] = budgettest.Allocated(func() {
			for i := range 1000 * (k + 1) {
				key := fmt.Sprintf("ws%05d/.small/progress.small.yml", i*7%n)
				next := m.With(key, -1-i)
				found := 0
				Diff(m, next, func(string) { found++ })
				if found != 1 {
					t.Fatalf("Diff found %d changes, want 1", found)
				}
				m = next
			}
		})
	}
	budgettest.Linear(t, "the bytes allocated", input, work)
}
