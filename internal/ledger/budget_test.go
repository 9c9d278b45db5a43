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

// history is a made-up history of n commits (n odd): a line, or a line
// of merges (the even commits), each bringing in a commit of a branch of
// its own (the odd ones), which starts at the merge before.
func history(t *testing.T, n int, merges bool) *Builder {
	nodes := make([]Node, n)
	for c := range nodes {
		nodes[c].Hash = fmt.Sprintf("%040x", c+1)
		switch {
		case c == 0:
		case merges && c%2 == 0:
			nodes[c].Parents = []string{nodes[c-2].Hash, nodes[c-1].Hash}
		default:
			nodes[c].Parents = []string{nodes[c-1].Hash}
		}
	}
	b, err := NewBuilder(nodes, config.Default().Ledger)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestEvidenceAncestryIsOneWalk is the work budget of ledger/evidence-
// commit: the last commit of a history records an entry naming each
// commit before it, and each is asked whether it is an ancestor of the
// recorder. Doubling the history doubles the questions; what answering
// them allocates must not grow faster (each question walked the history
// down to the commit it names: it grew with its square).
func TestEvidenceAncestryIsOneWalk(t *testing.T) {
	for _, merges := range []bool{false, true} {
		t.Run(fmt.Sprintf("merges %v", merges), func(t *testing.T) {
			var input, work [2]float64
			for k, n := range []int{3001, 6001} {
				b := history(t, n, merges)
				x := newCommitIndex(b.order)
				head := b.order[n-1]
				input[k] = float64(n)
				work[k] = budgettest.Allocated(func() {
					for _, a := range b.order[:n-1] {
						if !x.ancestor(a, head) {
							t.Fatalf("commit %d is not an ancestor of the head", a.index)
						}
					}
				})
			}
			budgettest.Linear(t, "the bytes allocated", input, work)
		})
	}
}
