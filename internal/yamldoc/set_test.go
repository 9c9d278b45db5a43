package yamldoc

import (
	"fmt"
	"strings"
	"testing"
)

// TestSetHasWhatEqualSays: a value is in a set when Equal says one of its
// values equals it, whatever the numeric spelling or key order.
func TestSetHasWhatEqualSays(t *testing.T) {
	decode := func(text string) []any {
		d, err := Decode([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		list, _ := d.Value.([]any)
		return list
	}
	set := NewComparer().Set(decode("- {a: 1, b: [x, y]}\n- 0x10\n- text\n"))
	for text, want := range map[string]bool{
		"- {b: [x, y], a: 1}\n": true, "- 16\n": true, "- text\n": true,
		"- {a: 1, b: [y, x]}\n": false, "- 17\n": false, "- other\n": false,
	} {
		if got := set.Has(decode(text)[0]); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}

// TestSetWorkFollowsItsSize: n lookups among n values compare each value
// with the few that share its hash, about n comparisons in all, not n×n.
func TestSetWorkFollowsItsSize(t *testing.T) {
	comparisons := func(n int) int {
		var text strings.Builder
		for i := range n {
			fmt.Fprintf(&text, "- {task_id: task-%d, n: %d}\n", i, i)
		}
		decode := func() []any {
			d, err := Decode([]byte(text.String()))
			if err != nil {
				t.Fatal(err)
			}
			return d.Value.([]any)
		}
		c := NewComparer()
		s := c.Set(decode())
		compared := 0
		for i, v := range decode() {
			if !s.Has(v) {
				t.Fatalf("entry %d is missing", i)
			}
			compared += len(s.by[c.eq.hashes.sum(v)])
		}
		return compared
	}
	small, large := comparisons(1000), comparisons(2000)
	if small > 1100 || large > 2*small+16 {
		t.Errorf("%d comparisons for 1000 lookups among 1000 values, %d for 2000: the work grows faster than the input", small, large)
	}
}
