package ledger

import (
	"fmt"
	"testing"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/budgettest"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
)

// walkWorkspaces has a Builder walk a history (made up: the ledger is
// pure) whose first commit adds n SMALL workspaces of one entry each and
// whose n next commits each append an entry to one of them, in turn; it
// returns the bytes the history's versions hold and what the walk
// allocated.
func walkWorkspaces(t *testing.T, n int) (size, allocated float64) {
	nodes := make([]Node, n+1)
	units := make([]changes.Unit, n+1)
	files := make([]*changes.Blob, n)
	for c := range nodes {
		nodes[c].Hash = fmt.Sprintf("%040x", c+1)
		if c > 0 {
			nodes[c].Parents = []string{nodes[c-1].Hash}
		}
		units[c] = changes.Unit{Mode: changes.ModeRange, Commit: &changes.Commit{Hash: nodes[c].Hash, Parents: nodes[c].Parents, CommitterTime: hours(c), AuthorTime: hours(c)}}
	}
	path := func(i int) string { return fmt.Sprintf("ws%05d/%s", i, progressPath) }
	for i := range files {
		files[i] = rulestest.Blob(progressHeader + entry(fmt.Sprintf("task-%d", i), hours(0)))
		units[0].Changes = append(units[0].Changes, changes.Change{Path: path(i), New: files[i]})
		size += float64(len(files[i].Data))
	}
	for c := range n {
		next := rulestest.Blob(string(files[c].Data) + entry(fmt.Sprintf("task-%d-more", c), hours(1+c)))
		units[c+1].Changes = []changes.Change{{Path: path(c), Old: files[c], New: next}}
		size += float64(len(next.Data))
	}
	actor := func(*changes.Unit) (attribution.Verdict, error) {
		return attribution.Verdict{Actor: attribution.Agent}, nil
	}
	allocated = budgettest.Allocated(func() {
		b, err := NewBuilder(nodes, config.Default().Ledger)
		if err != nil {
			t.Fatal(err)
		}
		for c := range units {
			if err := b.Add(&units[c], actor); err != nil {
				t.Fatal(err)
			}
		}
		l, err := b.Ledger(func(string, Kind) bool { return true })
		if err != nil || l.Entries() != 2*n {
			t.Fatalf("%v: %d entries, want %d", err, l.Entries(), 2*n)
		}
	})
	return size, allocated
}

// TestLedgerSnapshotsShareTheirFiles is the work budget of the ledger's
// walk: every commit's snapshot of the ledger files shares with its
// parent's every file it did not change. Doubling the workspaces and the
// commits doubles the history; what the walk allocates must not grow
// faster (each commit copied every file's place in a map of its own: it
// grew with workspaces × commits).
func TestLedgerSnapshotsShareTheirFiles(t *testing.T) {
	var input, work [2]float64
	for k, n := range []int{2000, 4000} {
		input[k], work[k] = walkWorkspaces(t, n)
	}
	budgettest.Linear(t, "the bytes allocated", input, work)
}
