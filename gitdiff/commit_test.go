package gitdiff

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// rawCommit writes a commit object of exactly the given text (git checks
// only that it parses) and returns its id.
func (r *repo) rawCommit(text string) string {
	r.T.Helper()
	return r.GitInput(text, "hash-object", "-t", "commit", "-w", "--literally", "--stdin")
}

// TestDecodeCommitAgreesWithGit decodes commits of many shapes and wants
// what git's own log prints for each: tree, parents, the author's and the
// committer's name and e-mail, the commit time and the message.
func TestDecodeCommitAgreesWithGit(t *testing.T) {
	r := newRepo(t)
	r.Write("a", "a")
	first := r.Commit("first")
	tree := r.Git("rev-parse", "HEAD^{tree}")
	ids := []string{first, r.Commit("second\n\nwith a body\n")}
	for _, text := range []string{
		"tree %[1]s\nparent %[2]s\nauthor A <a@x> <b@y> 1700000000 +0000\ncommitter C <c@x> 1700000001 +0100\n\nan e-mail with two brackets\n",
		"tree %[1]s\nauthor  Spaced  Name  <a@x> 1700000000 -0700\ncommitter C <c@x> 1700000001 +0000\nencoding ISO-8859-1\nx-extra first\n continued\n\nextra headers\n",
		"tree %[1]s\nparent %[2]s\nparent %[2]s\nauthor A <a@x> 1700000000 +0000\ncommitter C <c@x> 1700000001 +0000\nmergetag object %[2]s\n type commit\n\nno blank line in the tag above ends the headers\n",
		"tree %[1]s\nauthor A <a@x> 1700000000 +0000\ncommitter C <c@x> 1700000001 +0000\n",
		"tree %[1]s\nauthor No Email 1700000000 +0000\ncommitter C <c@x> 1700000001 +0000\n\nno e-mail\n",
	} {
		ids = append(ids, r.rawCommit(fmt.Sprintf(text, tree, first)))
	}
	for _, id := range ids {
		g := r.open()
		c, err := g.commit(plumbing.NewHash(id))
		g.Close()
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		got := fmt.Sprintf("%s|%s|%s|%s|%s|%s|%d|%s", c.TreeHash, joinHashes(c.ParentHashes), c.Author.Name, c.Author.Email, c.Committer.Name, c.Committer.Email, c.Committer.When.Unix(), c.Message)
		want := r.Git("log", "-1", "--format=%T|%P|%an|%ae|%cn|%ce|%ct|%B", id)
		if strings.TrimRight(got, "\n") != want {
			t.Errorf("%s:\n%q\ngit says\n%q", id, got, want)
		}
	}
}

func joinHashes(hs []plumbing.Hash) string {
	var s []string
	for _, h := range hs {
		s = append(s, h.String())
	}
	return strings.Join(s, " ")
}

// TestDecodeCommitTakesEverySignatureLine: the signature is every gpgsig
// header, continuation lines included, as git joins them.
func TestDecodeCommitTakesEverySignatureLine(t *testing.T) {
	raw := "tree " + strings.Repeat("a", 40) + "\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 1 +0000\ngpgsig -----BEGIN SSH SIGNATURE-----\n U1NIU0lH\n -----END SSH SIGNATURE-----\n\nmessage\n"
	c, err := DecodeCommit(plumbing.ZeroHash, []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	if want := "-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n"; c.PGPSignature != want || c.Message != "message\n" {
		t.Errorf("signature %q, message %q", c.PGPSignature, c.Message)
	}
}

// TestDecodeCommitIsLinear: a header of 100,000 continuation lines is
// joined in a few allocations. go-git's decoder joined them with += (one
// allocation and one copy of everything so far per line: seconds for a
// megabyte).
func TestDecodeCommitIsLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("tree " + strings.Repeat("a", 40) + "\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 1 +0000\ngpgsig start\n")
	for i := 0; i < 100_000; i++ {
		b.WriteString(" line of the signature\n")
	}
	b.WriteString("x-extra start\n")
	for i := 0; i < 100_000; i++ {
		b.WriteString(" line of an extra header\n")
	}
	b.WriteString("\nmessage\n")
	raw := []byte(b.String())
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := DecodeCommit(plumbing.ZeroHash, raw); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 100 {
		t.Errorf("decoding a commit with 200,000 header lines took %.0f allocations", allocs)
	}
}

// TestAmbiguousCommitsAreRefused: a commit git itself reads two ways is an
// error, never one of the readings.
func TestAmbiguousCommitsAreRefused(t *testing.T) {
	tree := "tree " + strings.Repeat("a", 40) + "\n"
	for name, raw := range map[string]string{
		"a second author after the committer": tree + "author A <a@x> 1 +0000\ncommitter C <c@x> 1 +0000\nauthor Human <h@x> 1 +0000\n\nm\n",
		"a second committer":                  tree + "author A <a@x> 1 +0000\ncommitter C <c@x> 1 +0000\ncommitter H <h@x> 1 +0000\n\nm\n",
		"no author":                           tree + "committer C <c@x> 1 +0000\n\nm\n",
		"no committer":                        tree + "author A <a@x> 1 +0000\n\nm\n",
		"the tree not first":                  "author A <a@x> 1 +0000\n" + tree + "committer C <c@x> 1 +0000\n\nm\n",
		"a parent after the author":           tree + "author A <a@x> 1 +0000\nparent " + strings.Repeat("b", 40) + "\ncommitter C <c@x> 1 +0000\n\nm\n",
		"a bad parent":                        tree + "parent xyz\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 1 +0000\n\nm\n",
		"an unterminated header":              tree + "author A <a@x> 1 +0000\ncommitter C <c@x> 1 +0000",
	} {
		if _, err := DecodeCommit(plumbing.ZeroHash, []byte(raw)); !errors.Is(err, errAmbiguousCommit) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

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
	Reader
	reads map[plumbing.Hash]int
	twins []*countingReader
}

func (c *countingReader) Object(h plumbing.Hash, prefix int64) (plumbing.ObjectType, []byte, []byte, error) {
	c.reads[h]++
	return c.Reader.Object(h, prefix)
}

func (c *countingReader) Twin() Reader {
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
	id := r.rawCommit(b.String())
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

// FuzzDecodeCommit: any bytes decode without a panic, and a commit that
// decodes has the parents the range walk reads (commitParents).
func FuzzDecodeCommit(f *testing.F) {
	tree := "tree " + strings.Repeat("a", 40) + "\n"
	f.Add([]byte(tree + "parent " + strings.Repeat("b", 40) + "\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 1 +0000\ngpgsig x\n y\n\nmessage\n"))
	f.Add([]byte(tree + "author A <a@x> <b@y> 1 +0000\ncommitter C <c@x> 1 -0130\nx-extra a\n b\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeCommit(plumbing.ZeroHash, data)
		if err != nil {
			return
		}
		parents, err := CommitParents(data)
		if err != nil || joinHashes(parents) != joinHashes(c.ParentHashes) {
			t.Fatalf("the walk reads parents %v (%v), the decoder %v", parents, err, c.ParentHashes)
		}
	})
}
