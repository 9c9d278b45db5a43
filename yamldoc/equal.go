package yamldoc

import (
	"sort"
)

// Equal compares two decoded YAML values as values: key order, quoting and
// layout do not matter; 1 and 1.0 are equal numbers.
func Equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok || !Equal(av, bv) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false
		}
		for i := range a {
			if !Equal(a[i], b[i]) {
				return false
			}
		}
		return true
	case int64:
		switch b := b.(type) {
		case int64:
			return a == b
		case float64:
			return float64(a) == b
		}
		return false
	case float64:
		switch b := b.(type) {
		case int64:
			return a == float64(b)
		case float64:
			return a == b
		}
		return false
	case Timestamp:
		b, ok := b.(Timestamp)
		return ok && a.Time.Equal(b.Time)
	}
	return a == b
}

// ChangedKeys lists the keys whose values differ between two mappings.
func ChangedKeys(a, b any) []string {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if !aok || !bok {
		return nil
	}
	var keys []string
	for k, av := range am {
		if bv, ok := bm[k]; !ok || !Equal(av, bv) {
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
