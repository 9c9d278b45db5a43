package gitdiff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/internal/budgettest"
	"github.com/small-hook/small-hook/internal/changes"
)

// TestARangeKeepsTheTreesOfTwoUnits: a range keeps the trees that the
// unit before read (a commit's tree is its child's parent tree), not
// every tree of the history: a long history's trees are not all held at
// once (4,000 commits of a 4,000-entry tree held 1.3 GB).
func TestARangeKeepsTheTreesOfTwoUnits(t *testing.T) {
	r := newRepo(t)
	var stream strings.Builder
	for i := range 40 {
		fmt.Fprintf(&stream, "commit refs/heads/main\ncommitter T <t@example.com> %d +0000\ndata 2\nc\n", 1700000000+i)
		fmt.Fprintf(&stream, "M 100644 inline d%02d/.small/intent.small.yml\ndata 2\n%d\n", i, i%10)
	}
	r.GitInput(stream.String(), "fast-import", "--quiet")
	g := r.open()
	defer g.Close()
	most := 0
	_, err := g.Range("", "main", Scope{}, func(u changes.Unit) error {
		if _, err := u.Files.Read("d00/.small/intent.small.yml"); err != nil {
			return err
		}
		most = max(most, len(g.trees)+len(g.lastTrees))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if most > 6 {
		t.Errorf("the reader held %d trees at once over 40 commits", most)
	}
}

// TestTreeDiffAllocatesWhatChanged: two versions of a 2,000-entry tree
// that differ in one file are compared side by side, in git's order: what
// the comparison allocates follows what changed, not the size of the
// trees (it made three maps of every name).
func TestTreeDiffAllocatesWhatChanged(t *testing.T) {
	r := newRepo(t)
	var stream strings.Builder
	for c := range 2 {
		fmt.Fprintf(&stream, "commit refs/heads/main\ncommitter T <t@example.com> %d +0000\ndata 2\nc\n", 1700000000+c)
		for i := range 2000 {
			if c == 0 || i == 1000 {
				fmt.Fprintf(&stream, "M 100644 inline f%04d.txt\ndata 2\n%d\n", i, c)
			}
		}
	}
	r.GitInput(stream.String(), "fast-import", "--quiet")
	g := r.open()
	defer g.Close()
	var hashes [2]plumbing.Hash
	for k, rev := range []string{"main~1", "main"} {
		h, err := g.resolve(rev)
		if err != nil {
			t.Fatal(err)
		}
		c, err := g.commit(h)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.tree(c.TreeHash); err != nil {
			t.Fatal(err)
		}
		hashes[k] = c.TreeHash
	}
	var err error
	old, new := entries{}, entries{}
	allocated := budgettest.Allocated(func() { err = g.diffTrees(hashes[0], hashes[1], "", Scope{All: true}, old, new) })
	if err != nil || len(old) != 1 || len(new) != 1 {
		t.Fatalf("%v: %d old, %d new", err, len(old), len(new))
	}
	if allocated > 16<<10 {
		t.Errorf("comparing two trees of 2,000 entries that differ in one allocated %.0f bytes", allocated)
	}
}
