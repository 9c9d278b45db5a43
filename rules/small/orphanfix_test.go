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

// TestOrphanRenamesAreTheCLIs: the reference CLI's own repair
// (`small fix --orphan-progress` after `small reset`, testdata) renames
// entries 2, 5 and 6; anything near it that is not exactly what the CLI
// writes renames nothing.
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
