package smp

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// lcsLength is the textbook dynamic programme, to check Myers against.
func lcsLength(a, b []int) int {
	prev := make([]int, len(b)+1)
	for i := range a {
		cur := make([]int, len(b)+1)
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			default:
				cur[j+1] = max(prev[j+1], cur[j])
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

func TestMergeCommonLinesIsALongestCommonSubsequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 3000; n++ {
		a := make([]int, rng.IntN(12))
		b := make([]int, rng.IntN(12))
		for i := range a {
			a[i] = rng.IntN(4)
		}
		for i := range b {
			b[i] = rng.IntN(4)
		}
		pairs, ok := commonLines(a, b)
		if !ok {
			t.Fatalf("%v %v: gave up", a, b)
		}
		if len(pairs) != lcsLength(a, b) {
			t.Fatalf("%v %v: %d pairs, the longest common subsequence has %d", a, b, len(pairs), lcsLength(a, b))
		}
		for i, p := range pairs {
			if a[p[0]] != b[p[1]] || i > 0 && (p[0] <= pairs[i-1][0] || p[1] <= pairs[i-1][1]) {
				t.Fatalf("%v %v: bad pairs %v", a, b, pairs)
			}
		}
	}
}

func TestMergeCommonLinesGivesUpOnlyBeyondTheLimit(t *testing.T) {
	a, b := make([]int, maxEdits), make([]int, maxEdits)
	for i := range a {
		a[i], b[i] = i, -1-i
	}
	if _, ok := commonLines(a[:maxEdits/2], b[:maxEdits/2]); !ok {
		t.Error("gave up within the limit")
	}
	if _, ok := commonLines(a, b); ok {
		t.Error("did not give up beyond the limit")
	}
}

func body(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func TestMergeOfBodies(t *testing.T) {
	base := body("# T", "", "one", "two", "three")
	ours := body("# T", "", "one", "two (ours)", "three")
	theirs := body("# T", "", "one", "two", "three", "four (theirs)")
	conflictOurs := body("# T", "", "one", "two", "three", "ours 1", "ours 2")
	conflictTheirs := body("# T", "", "one", "two", "three", "theirs 1")
	cases := []struct {
		name                       string
		base, ours, theirs, result string
		want                       bool
	}{
		{"each side's change kept", base, ours, theirs, body("# T", "", "one", "two (ours)", "three", "four (theirs)"), true},
		{"only ours", base, ours, theirs, ours, false},
		{"a line no side wrote", base, ours, theirs, body("# T", "", "one", "two (ours)", "three", "four (theirs)", "evil"), false},
		{"a side's change reverted", base, ours, theirs, body("# T", "", "one", "two", "three", "four (theirs)"), false},
		{"a shared line removed", base, ours, theirs, body("# T", "", "two (ours)", "three", "four (theirs)"), false},
		{"CRLF result", base, ours, theirs, strings.ReplaceAll(body("# T", "", "one", "two (ours)", "three", "four (theirs)"), "\n", "\r\n"), true},
		{"a conflict resolved as ours then theirs", base, conflictOurs, conflictTheirs, body("# T", "", "one", "two", "three", "ours 1", "ours 2", "theirs 1"), true},
		{"a conflict resolved as theirs then ours", base, conflictOurs, conflictTheirs, body("# T", "", "one", "two", "three", "theirs 1", "ours 1", "ours 2"), true},
		{"a conflict resolved interleaved", base, conflictOurs, conflictTheirs, body("# T", "", "one", "two", "three", "ours 1", "theirs 1", "ours 2"), true},
		{"a conflict resolved as one side", base, conflictOurs, conflictTheirs, body("# T", "", "one", "two", "three", "theirs 1"), true},
		{"a conflict resolved with a line dropped", base, conflictOurs, conflictTheirs, body("# T", "", "one", "two", "three", "ours 1", "theirs 1"), false},
		{"a conflict resolved with new text", base, conflictOurs, conflictTheirs, body("# T", "", "one", "two", "three", "ours 1", "ours 2", "theirs 1", "mine"), false},
		{"a conflict resolved out of a side's order", base, conflictOurs, conflictTheirs, body("# T", "", "one", "two", "three", "ours 2", "ours 1", "theirs 1"), false},
		{"no merge base: both bodies", "", body("a"), body("b"), body("a", "b"), true},
		{"no merge base: new text", "", body("a"), body("b"), body("a", "b", "c"), false},
		{"same change on both sides", base, ours, ours, ours, true},
		{"one side deleted, the other kept", base, body("# T", "", "one", "three"), base, body("# T", "", "one", "three"), true},
		{"an empty result", base, ours, theirs, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := plainMerge(c.base, c.ours, c.theirs, c.result); got != c.want {
				t.Errorf("plainMerge = %v, want %v", got, c.want)
			}
		})
	}
}

func TestMergeOfBodiesTooFarApart(t *testing.T) {
	var base, ours, theirs []string
	for i := 0; i < maxEdits+10; i++ {
		base = append(base, "base")
		ours = append(ours, "ours")
		theirs = append(theirs, "base")
	}
	theirs = append(theirs, "more")
	// The merge is ours plus "more", but ours cannot be aligned with the
	// base: it is never taken for a plain merge.
	if plainMerge(body(base...), body(ours...), body(theirs...), body(append(ours, "more")...)) {
		t.Error("bodies beyond the alignment limit were taken for a plain merge")
	}
}

// FuzzMergeOfBodies: a side that alone changed the base is always a plain
// merge, whichever side it is, and nothing panics.
func FuzzMergeOfBodies(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", "a\nb\nc\nd\n", "a\nB\nc\nd\n")
	f.Add("", "x\n", "y\n", "y\nx\n")
	f.Add("a\r\nb\r\n", "a\nb\nc", "", "c")
	f.Fuzz(func(t *testing.T, base, ours, theirs, result string) {
		if len(base)+len(ours)+len(theirs)+len(result) > 4096 {
			return
		}
		plainMerge(base, ours, theirs, result)
		if !plainMerge(base, ours, base, ours) || !plainMerge(base, base, theirs, theirs) || !plainMerge(base, ours, ours, ours) {
			t.Fatalf("a one-sided change is not a plain merge: %q %q %q", base, ours, theirs)
		}
	})
}

// BenchmarkMergeOfBodies merges two 5,000-line bodies that each changed
// every hundredth line, one side also appending a section.
func BenchmarkMergeOfBodies(b *testing.B) {
	var base, ours, theirs, result []string
	for i := 0; i < 5000; i++ {
		line := "line " + strings.Repeat("x", i%7) + string(rune('a'+i%26))
		base = append(base, line)
		switch {
		case i%100 == 0:
			ours = append(ours, line+" (ours)")
			theirs = append(theirs, line)
			result = append(result, line+" (ours)")
		case i%100 == 50:
			ours = append(ours, line)
			theirs = append(theirs, line+" (theirs)")
			result = append(result, line+" (theirs)")
		default:
			ours, theirs, result = append(ours, line), append(theirs, line), append(result, line)
		}
	}
	theirs = append(theirs, "## Notes", "Their note.")
	result = append(result, "## Notes", "Their note.")
	o, a, t, r := body(base...), body(ours...), body(theirs...), body(result...)
	for b.Loop() {
		if !plainMerge(o, a, t, r) {
			b.Fatal("not a plain merge")
		}
	}
}
