package changes

import (
	"slices"
	"strings"
	"testing"
)

// TestSlices: a SMALL workspace's changes stay in one slice (its folded
// spellings too) however small the budget, every other change may go
// alone, a slice holds one group and others up to the budget, in the order
// of their first change but for the slice of the largest group, which
// comes last, a slice holds its changes in path order, and a unit within
// the budget besides its largest group is its own only slice.
func TestSlices(t *testing.T) {
	u := &Unit{Mode: ModeStaged, Changes: []Change{
		{Path: ".SMALL/plan.small.yml", New: blob("x")},
		{Path: ".awp/workspace.json", New: blob("{}")},
		{Path: ".small/intent.small.yml", New: blob("intent")},
		{Path: ".small/progress.small.yml", New: blob("progress")},
		{Path: "a/.small/plan.small.yml", New: blob("plan")},
		{Path: "artifacts/one.md", New: blob(artifact)},
		{Path: "artifacts/two.md", New: blob(artifact), Old: blob(note)},
	}}
	Locate(u)
	empty := &Unit{}
	if got := empty.Slices(0); len(got) != 1 || got[0] != empty {
		t.Errorf("a unit without changes: %d slices, want itself", len(got))
	}
	if got := u.Slices(1 << 20); len(got) != 1 || got[0] != u {
		t.Fatalf("a unit within the budget: %d slices, want itself", len(got))
	}
	var got []string
	for _, s := range u.Slices(1) {
		if s.Mode != u.Mode {
			t.Errorf("a slice's mode is %s", s.Mode)
		}
		var paths []string
		for _, ch := range s.Changes {
			paths = append(paths, ch.Path)
		}
		if !slices.IsSorted(paths) {
			t.Errorf("a slice out of path order: %v", paths)
		}
		got = append(got, strings.Join(paths, " "))
	}
	want := []string{
		".SMALL/plan.small.yml .small/intent.small.yml .small/progress.small.yml",
		".awp/workspace.json",
		"a/.small/plan.small.yml",
		"artifacts/one.md",
		"artifacts/two.md",
	}
	if !slices.Equal(got, want) {
		t.Errorf("slices:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The largest group's slice comes last, for the next unit of a range.
	big := &Unit{Changes: []Change{
		{Path: ".small/progress.small.yml", New: blob(strings.Repeat("entry\n", 100))},
		{Path: "a/.small/plan.small.yml", New: blob("plan")},
	}}
	Locate(big)
	if got := big.Slices(1); len(got) != 2 || got[1].Changes[0].Path != ".small/progress.small.yml" {
		t.Errorf("the largest group's slice is not last")
	}
	// A slice holds one group of any size and other groups of at most the
	// budget: the root workspace (15 bytes) and the marker (2); a/ (4) and
	// one.md (37); two.md (44).
	packed := u.Slices(5)
	if len(packed) != 3 || len(packed[0].Changes) != 4 || len(packed[1].Changes) != 2 {
		t.Errorf("with a budget of 5 bytes: %d slices of %d, %d changes; want 3 of 4, 2, 1", len(packed), len(packed[0].Changes), len(packed[1].Changes))
	}
	// Within the budget besides its largest group (two.md), one slice.
	if got := u.Slices(15 + 2 + 4 + len(artifact)); len(got) != 1 {
		t.Errorf("a unit within the budget besides its largest group: %d slices", len(got))
	}
}
