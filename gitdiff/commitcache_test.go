package gitdiff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/internal/gitread"
)

// TestEachCommitIsDecodedOnce: a range reads each of its commits once,
// whichever of the two readers of a range needs it.
func TestEachCommitIsDecodedOnce(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/constraints.small.yml", "a0")
	base := r.Commit("base")
	for i := 1; i <= 5; i++ {
		r.Write(".small/constraints.small.yml", fmt.Sprintf("a%d", i))
		r.Commit(fmt.Sprint("commit ", i))
	}
	r.Git("commit-graph", "write", "--reachable")
	g := r.open()
	defer g.Close()
	counter := &countingReader{Reader: g.reader, reads: map[plumbing.Hash]int{}}
	g.reader = counter
	if _, err := rangeUnits(g, base, "HEAD", Scope{}); err != nil {
		t.Fatal(err)
	}
	commits := strings.Fields(r.Git("rev-list", base+"..HEAD"))
	for _, id := range commits {
		if n := counter.count(plumbing.NewHash(id)); n != 1 {
			t.Errorf("commit %s was read %d times", id, n)
		}
	}
}

// countingReader counts the reads of each object, its twin's included.
type countingReader struct {
	gitread.Reader
	reads map[plumbing.Hash]int
	twins []*countingReader
}

func (c *countingReader) Object(h plumbing.Hash, prefix int64) (plumbing.ObjectType, []byte, []byte, error) {
	c.reads[h]++
	return c.Reader.Object(h, prefix)
}

func (c *countingReader) Twin() gitread.Reader {
	t := &countingReader{Reader: c.Reader.Twin(), reads: map[plumbing.Hash]int{}}
	c.twins = append(c.twins, t)
	return t
}

func (c *countingReader) count(h plumbing.Hash) int {
	n := c.reads[h]
	for _, t := range c.twins {
		n += t.count(h)
	}
	return n
}

// TestLargeCommitHeaderInARange: a range over a commit with a megabyte of
// header lines (which `git fsck --strict` accepts) is checked like any
// other.
func TestLargeCommitHeaderInARange(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/constraints.small.yml", "a0")
	base := r.Commit("base")
	r.Write(".small/constraints.small.yml", "a1")
	r.Git("add", "-A")
	tree := r.Git("write-tree")
	var b strings.Builder
	fmt.Fprintf(&b, "tree %s\nparent %s\nauthor A <a@x> 1700000000 +0000\ncommitter C <c@x> 1700000000 +0000\nx-large start\n", tree, base)
	for b.Len() < 1<<20 {
		b.WriteString(" another line of a large header\n")
	}
	b.WriteString("\nlarge header\n")
	id := r.rawObject("commit", []byte(b.String()))
	r.Git("update-ref", "refs/heads/main", id)
	if _, err := r.Try("fsck", "--strict"); err != nil {
		t.Fatalf("git fsck --strict refuses the commit: %v", err)
	}
	g := r.open()
	defer g.Close()
	units, err := rangeUnits(g, base, "main", Scope{})
	if err != nil || len(units) != 1 || summary(units[0].Changes) != ".small/constraints.small.yml:a0>a1" {
		t.Fatalf("%v %v", units, err)
	}
}
