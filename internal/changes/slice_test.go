package changes

import (
	"slices"
	"strings"
	"testing"
)

// TestSlices: a SMALL workspace's changes stay in one slice (its folded
// spellings too) however small the budget, every other change may go
// alone, groups fill a slice up to the budget in the order of their first
// change, a slice holds its changes in path order, and a unit within the
// budget is its own only slice.
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
	// The root workspace (15 bytes), the marker (2) and a/ (4) fill 21
	// bytes; each artifact is larger than what is left.
	packed := u.Slices(21)
	if len(packed) != 3 || len(packed[0].Changes) != 5 {
		t.Errorf("with a budget of 21 bytes: %d slices, the first of %d changes; want 3, the first of 5", len(packed), len(packed[0].Changes))
	}
}
