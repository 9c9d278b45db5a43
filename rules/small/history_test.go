package small

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
)

// splitEntries cuts a reference progress file into its header and its
// entries, each entry the exact text of one sequence item.
func splitEntries(t *testing.T, progress string) (string, []string) {
	t.Helper()
	parts := strings.Split(progress, "\n    - ")
	if len(parts) < 3 {
		t.Fatalf("expected several entries, got %d parts", len(parts))
	}
	entries := make([]string, 0, len(parts)-1)
	for _, p := range parts[1:] {
		entries = append(entries, "    - "+strings.TrimSuffix(p, "\n")+"\n")
	}
	return parts[0] + "\n", entries
}

func TestRemovedOrReorderedEntriesFail(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	header, entries := splitEntries(t, base[rootProgress])
	if got := header + strings.Join(entries, ""); got != base[rootProgress] {
		t.Fatal("splitting the progress file lost bytes")
	}
	removeMiddle := append(append([]string{}, entries[:2]...), entries[3:]...)
	removeLast := entries[:len(entries)-1]
	swapped := append([]string{}, entries...)
	swapped[1], swapped[2] = swapped[2], swapped[1]
	cases := []struct {
		name    string
		entries []string
		want    string
	}{
		{"unchanged plus append", append(append([]string{}, entries...), newEntry), ""},
		{"middle entry removed", removeMiddle, "small/append-only"},
		{"last entry removed", removeLast, "small/append-only"},
		{"two entries swapped", swapped, "small/append-only"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			after := with(base, rootProgress, header+strings.Join(tc.entries, ""))
			got := strings.Join(dedupe(check(t, rules.Error, rulestest.Staged(base, after))), ",")
			if got != tc.want {
				t.Errorf("errors %q, want %q", got, tc.want)
			}
		})
	}
}

func TestNonRegularCanonicalFileFails(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	for _, kind := range []changes.Kind{changes.KindSymlink, changes.KindSubmodule, changes.KindFile} {
		t.Run(string(kind), func(t *testing.T) {
			unit := rulestest.Staged(base, with(base, rootPlan, base[rootPlan]+"# touched\n"))
			for i := range unit.Changes {
				if unit.Changes[i].Path == rootPlan {
					unit.Changes[i].New.Kind = kind
				}
			}
			got := dedupe(check(t, rules.Error, unit))
			if failed := contains(got, "small/parse"); failed != (kind != changes.KindFile) {
				t.Errorf("%s: errors %v", kind, got)
			}
		})
	}
}

func TestTreeModeJudgesEveryFile(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	cases := []struct {
		name  string
		files rulestest.Snapshot
		want  string
	}{
		{"reference workspace", base, ""},
		{"canonical file missing", with(base, rootHandoff, ""), "small/required"},
		{"stray file", with(base, rootDir+"old-progress.yml", "x"), "small/layout"},
		{"old entry without evidence", with(base, rootProgress, strings.Replace(base[rootProgress], "- evidence: go test ./parser passed\n      notes: parser done", "- notes: parser done", 1)), "small/evidence"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(dedupe(check(t, rules.Error, rulestest.Tree(tc.files))), ",")
			if got != tc.want {
				t.Errorf("errors %q, want %q", got, tc.want)
			}
		})
	}
}
