package small

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// workflowEntries decodes the progress entries the reference CLI wrote at
// one step of testdata/small/workflows, after edit.
func workflowEntries(t *testing.T, step string, edit func(string) string) []any {
	t.Helper()
	data, err := os.ReadFile("../../testdata/small/workflows/" + step + "/progress.small.yml")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := yamldoc.Decode([]byte(edit(string(data))))
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := doc.Value.(map[string]any)["entries"].([]any)
	return entries
}

func same(s string) string { return s }

// TestOrphanRenamesAreTheCLIs: the reference CLI's own repairs
// (`small fix --orphan-progress` after `small reset`, testdata) are
// recognised, entry by entry; anything near one that is not exactly what
// the CLI writes renames nothing.
func TestOrphanRenamesAreTheCLIs(t *testing.T) {
	old := workflowEntries(t, "6-reset", same)
	positions := func(cur []any) []int {
		var out []int
		for i, r := range OrphanRenames(old, cur) {
			if r {
				out = append(out, i)
			}
		}
		return out
	}
	if got := positions(workflowEntries(t, "7-orphan-fix", same)); !slices.Equal(got, []int{1, 4, 5}) {
		t.Errorf("the CLI's repair renames %v, want [1 4 5]", got)
	}
	if !orphanRepair(old, workflowEntries(t, "7-orphan-fix", same)) {
		t.Error("the CLI's repair is not recognised as one")
	}
	// Another run renames in each of the CLI's three ways: operational
	// (apply, reset), historical (task-2, task-7) and unknown (weird id/x,
	// sanitised).
	more, fixed := workflowEntries(t, "10-reset-more", same), workflowEntries(t, "11-orphan-fix-more", same)
	var renamed []int
	for i, r := range OrphanRenames(more, fixed) {
		if r {
			renamed = append(renamed, i)
		}
	}
	if !slices.Equal(renamed, []int{1, 3, 4, 5, 6}) || !orphanRepair(more, fixed) {
		t.Errorf("the CLI's repair of every kind renames %v, want [1 3 4 5 6]", renamed)
	}
	for _, c := range []struct {
		name string
		edit func(string) string
		want []int
	}{
		{"no reconcile entry", func(s string) string { return s[:strings.Index(s, "    - evidence: Rewrote orphan progress")] }, nil},
		{"another hash", func(s string) string { return strings.Replace(s, "reset:c9dd", "reset:c9de", 1) }, []int{1, 4}},
		{"another name", func(s string) string {
			return strings.Replace(s, "task_id: meta/reset", "task_id: meta/historical/reset", 1)
		}, []int{1, 4}},
		{"another field changed too", func(s string) string {
			return strings.Replace(s, "notes: small reset", "notes: small reset, edited", 1)
		}, []int{1, 4}},
	} {
		if got := positions(workflowEntries(t, "7-orphan-fix", c.edit)); !slices.Equal(got, c.want) {
			t.Errorf("%s: renames %v, want %v", c.name, got, c.want)
		}
	}
}
