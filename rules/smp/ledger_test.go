package smp_test

import (
	"slices"
	"testing"

	"github.com/small-hook/small-hook/rules/smp"
)

func prov(actions ...string) []any {
	var out []any
	for i, a := range actions {
		out = append(out, map[string]any{"agent": "did:key:z6MkA", "action": a, "timestamp": string(rune('a' + i))})
	}
	return out
}

// TestAlignKeepsOldEntriesInOrder matches old provenance entries, in
// order, to equal entries of the new list: what is new stands where no
// old entry is.
func TestAlignKeepsOldEntriesInOrder(t *testing.T) {
	old := prov("created", "updated", "synced")
	cur := append(slices.Clone(old[:2]), prov("created", "updated", "synced", "merged")[2:]...)
	cur[2] = map[string]any{"agent": "did:key:z6MkB", "action": "synced", "timestamp": "z"} // a replaced trailing sync
	cases := []struct {
		name     string
		old, cur []any
		want     []int
	}{
		{"append", old[:2], old, []int{0, 1, -1}},
		{"replaced sync", old, cur, []int{0, 1, -1, -1}},
		{"reordered", old, []any{old[1], old[0], old[2]}, []int{-1, 0, 2}},
		{"new file", nil, old, []int{-1, -1, -1}},
	}
	for _, c := range cases {
		if got := smp.Align(c.old, c.cur); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestVersionFollowsAsSMPVersionCounts: one step per new updated or merged
// entry, a synced entry may add one, anything else does not follow.
func TestVersionFollowsAsSMPVersionCounts(t *testing.T) {
	cases := []struct {
		name     string
		old, cur any
		oldP     []any
		curP     []any
		want     bool
	}{
		{"update", int64(1), int64(2), prov("created"), prov("created", "updated"), true},
		{"two updates, one step", int64(1), int64(2), prov("created"), prov("created", "updated", "updated"), false},
		{"sync without a step", int64(1), int64(1), prov("created"), prov("created", "synced"), true},
		{"sync with a step", int64(1), int64(2), prov("created"), prov("created", "synced"), true},
		{"a step without an entry", int64(1), int64(2), prov("created"), prov("created"), false},
		{"not an integer", "one", int64(2), prov("created"), prov("created"), true},
	}
	for _, c := range cases {
		if got := smp.VersionFollows(c.old, c.cur, c.oldP, c.curP); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if !smp.VersionCovers(int64(2), prov("created", "updated", "synced")) || smp.VersionCovers(int64(1), prov("created", "merged")) {
		t.Error("VersionCovers does not count created, updated and merged entries")
	}
}
