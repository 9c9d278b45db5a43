package yamldoc

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// sharedDocument writes entries that all refer to one anchored mapping
// of keys keys; order lists the entries' numbers, and changed, when not
// negative, gives that entry a different status.
func sharedDocument(keys int, order []int, changed int) []byte {
	var b strings.Builder
	b.WriteString("shared: &s\n")
	for k := range keys {
		fmt.Fprintf(&b, "  k%04d: value %d\n", k, k)
	}
	b.WriteString("entries:\n")
	for _, i := range order {
		status := "done"
		if i == changed {
			status = "changed"
		}
		fmt.Fprintf(&b, "  - task_id: t%d\n    status: %s\n    context: *s\n", i, status)
	}
	return []byte(b.String())
}

func upTo(n int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	return order
}

func reversed(order []int) []int {
	out := make([]int, len(order))
	for i, v := range order {
		out[len(order)-1-i] = v
	}
	return out
}

func mustDecode(t testing.TB, data []byte) []any {
	t.Helper()
	doc, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	return doc.Value.(map[string]any)["entries"].([]any)
}

// TestSharedAnchorsAreDecodedAndComparedOnce builds 1,500 entries sharing
// one anchored 2,000-key mapping, the document that took minutes to
// compare when every alias was a copy compared anew.
func TestSharedAnchorsAreDecodedAndComparedOnce(t *testing.T) {
	order := upTo(1500)
	old := mustDecode(t, sharedDocument(2000, order, -1))
	same := mustDecode(t, sharedDocument(2000, order, -1))
	changed := mustDecode(t, sharedDocument(2000, order, 700))
	back := mustDecode(t, sharedDocument(2000, reversed(order), -1))

	first := old[0].(map[string]any)["context"]
	last := old[len(old)-1].(map[string]any)["context"]
	if reflect.ValueOf(first).Pointer() != reflect.ValueOf(last).Pointer() {
		t.Error("the aliases of one anchor decode to separate copies")
	}
	if !Equal(old, same) || Equal(old, changed) {
		t.Error("comparing the documents gives the wrong answer")
	}
	// How rules look up every old entry in a new list.
	cmp := NewComparer()
	for i, o := range old {
		at := -1
		for j, n := range back {
			if cmp.Equal(o, n) {
				at = j
				break
			}
		}
		if at != len(back)-1-i {
			t.Fatalf("old entry %d found at %d in the reversed list", i, at)
		}
	}
	if i := indexOfEqual(changed[700], old); i != -1 {
		t.Errorf("the changed entry was found at %d", i)
	}
}

func indexOfEqual(v any, list []any) int {
	for i, x := range list {
		if Equal(v, x) {
			return i
		}
	}
	return -1
}

// TestComparerTellsSharedMappingsApart has entries that differ only in
// which of two large anchored mappings (themselves differing in one key)
// they refer to: a Comparer compares that pair once, not once per entry.
func TestComparerTellsSharedMappingsApart(t *testing.T) {
	var b strings.Builder
	for _, anchor := range []string{"a", "b"} {
		fmt.Fprintf(&b, "%s: &%s\n", anchor, anchor)
		for k := range 2000 {
			v := "same"
			if k == 1999 && anchor == "b" {
				v = "different"
			}
			fmt.Fprintf(&b, "  k%04d: %s\n", k, v)
		}
	}
	b.WriteString("entries:\n")
	for i := range 1000 {
		fmt.Fprintf(&b, "  - *%s\n", []string{"a", "b"}[i%2])
	}
	entries := mustDecode(t, []byte(b.String()))
	again := mustDecode(t, []byte(b.String()))
	cmp := NewComparer()
	for i, e := range entries {
		for j, f := range again {
			if cmp.Equal(e, f) != (i%2 == j%2) {
				t.Fatalf("entries %d and %d", i, j)
			}
		}
	}
}

func TestSharedAnchorsStillCountExpanded(t *testing.T) {
	// 2,000 references to a 2,001-value mapping expand past MaxValues.
	_, err := Decode(sharedDocument(2000, upTo(2000), -1))
	var ye *Error
	if !errors.As(err, &ye) || !strings.Contains(ye.Msg, "values") {
		t.Fatalf("got %v, want the expansion refused", err)
	}
	if _, err := Decode(sharedDocument(2000, upTo(1500), -1)); err != nil {
		t.Fatalf("1,500 references are within the limit: %v", err)
	}
	// So do the bytes: a few values, but a string of 1 MiB repeated 130
	// times is more text than MaxExpandedBytes.
	long := "a: &a " + strings.Repeat("x", 1<<20) + "\nb:\n"
	if _, err := Decode([]byte(long + strings.Repeat("  - *a\n", 130))); !errors.As(err, &ye) || !strings.Contains(ye.Msg, "MiB of text") {
		t.Fatalf("got %v, want the expansion in bytes refused", err)
	}
	if _, err := Decode([]byte(long + strings.Repeat("  - *a\n", 100))); err != nil {
		t.Fatalf("100 repetitions are within the limit: %v", err)
	}
	// Depth counts the alias expanded too.
	deep := "a: &a " + strings.Repeat("[", 150) + strings.Repeat("]", 150) + "\nb: " + strings.Repeat("[", 60) + "*a" + strings.Repeat("]", 60) + "\n"
	if _, err := Decode([]byte(deep)); !errors.As(err, &ye) || !strings.Contains(ye.Msg, "nested") {
		t.Fatalf("got %v, want the nesting refused", err)
	}
	if _, err := Decode([]byte("a: &a [*a]\n")); !errors.As(err, &ye) {
		t.Fatalf("got %v for an alias inside its own anchor", err)
	}
}

func BenchmarkEqualSharedAnchors(b *testing.B) {
	order := upTo(1500)
	old := mustDecode(b, sharedDocument(2000, order, -1))
	changed := mustDecode(b, sharedDocument(2000, order, 700))
	back := mustDecode(b, sharedDocument(2000, reversed(order), -1))
	b.Run("trivial change", func(b *testing.B) {
		for b.Loop() {
			Equal(old, changed)
		}
	})
	b.Run("reversed, Comparer lookups", func(b *testing.B) {
		for b.Loop() {
			cmp := NewComparer()
			for _, o := range old {
				for _, n := range back {
					if cmp.Equal(o, n) {
						break
					}
				}
			}
		}
	})
}

func BenchmarkDecodeSharedAnchors(b *testing.B) {
	data := sharedDocument(2000, upTo(1500), -1)
	for b.Loop() {
		if _, err := Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}
