package gitdiff

import (
	"fmt"
	"runtime"
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

// TestACommitAllocatesWhatItChanged: a commit that appends to one of n
// workspaces, each a directory of the root tree, is read and compared with
// its parent in as many allocations whether n is 2,000 or 4,000: the root
// trees are read whole (their bytes follow n) but walked in place, and
// only the entries that differ are decoded. Decoding both root trees made
// a string and an entry per workspace, 47 % of the CPU of `small-hook log`
// over 4,000 such commits.
func TestACommitAllocatesWhatItChanged(t *testing.T) {
	var counts [2]float64
	for k, n := range []int{2000, 4000} {
		r := newRepo(t)
		var stream strings.Builder
		fmt.Fprintf(&stream, "commit refs/heads/main\ncommitter T <t@example.com> 1700000000 +0000\ndata 2\nc\n")
		for i := range n {
			fmt.Fprintf(&stream, "M 100644 inline ws%04d/.small/progress.small.yml\ndata 2\n%d\n", i, i%10)
		}
		fmt.Fprintf(&stream, "commit refs/heads/main\ncommitter T <t@example.com> 1700000001 +0000\ndata 2\nc\n")
		fmt.Fprintf(&stream, "M 100644 inline ws0777/.small/progress.small.yml\ndata 3\nxy\n")
		r.GitInput(stream.String(), "fast-import", "--quiet")
		g := r.open()
		var units []changes.Unit
		var err error
		counts[k] = budgettest.Allocations(func() { units, err = rangeUnits(g, "main~1", "main", Scope{}) })
		g.Close()
		if err != nil || len(units) != 1 || paths(units[0].Changes) != "ws0777/.small/progress.small.yml" {
			t.Fatalf("%d workspaces: %v, %d units", n, err, len(units))
		}
	}
	if counts[1] > budgettest.Slack*counts[0] {
		t.Errorf("a commit over 2,000 workspaces made %.0f allocations, over 4,000 %.0f: they follow the tree's size, not the change", counts[0], counts[1])
	}
}

// TestTheCommitViewKeepsAFileInFortyBytes: the view of what a staged
// commit of many files commits (commitView) lives as long as the unit,
// so it keeps each file as a path and an entry in a sorted list, looked
// up by binary search: as a map it kept about 96 bytes a file (5.8 MB of
// the live heap in BENCHMARKS.md 15's 60,000 files), and listing a
// workspace sorted every path once more.
func TestTheCommitViewKeepsAFileInFortyBytes(t *testing.T) {
	const n = 20_000
	r := newRepo(t)
	r.Write("README.md", "x\n")
	r.Commit("base")
	blob := strings.TrimSpace(r.GitInput("progress\n", "hash-object", "-w", "--stdin"))
	var info strings.Builder
	for i := range n {
		fmt.Fprintf(&info, "100644 %s 0\tws%05d/.small/progress.small.yml\n", blob, i)
	}
	r.GitInput(info.String(), "update-index", "--index-info")
	g := r.open()
	defer g.Close()
	idx, staged, err := g.indexEntries(Scope{All: true})
	if err != nil {
		t.Fatal(err)
	}
	_, head, err := g.headTree()
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, view, err := g.commitView(head, idx, Scope{All: true}, staged)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := view.List("ws00007/"); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	// What the view was built from is the caller's, kept till here.
	runtime.KeepAlive(idx)
	runtime.KeepAlive(staged)
	if e, err := view.lookup("ws19999/.small/progress.small.yml"); err != nil || e == nil {
		t.Fatalf("the view lost a file: %v, %v", e, err)
	}
	kept := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	if perFile := kept / n; perFile > 56 {
		t.Errorf("the view of %d files keeps %.0f bytes, %.0f a file: more than a path, an entry and slack (56)", n, kept, perFile)
	}
}
