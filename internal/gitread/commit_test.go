package gitread

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
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
		c, err := readCommit(g, id)
		g.Reader.Close()
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

// readCommit reads commit id with the repository's reader, and decodes it.
func readCommit(g *Repository, id string) (*object.Commit, error) {
	h := plumbing.NewHash(id)
	_, data, _, err := g.Reader.Object(h, -1)
	if err != nil {
		return nil, err
	}
	return DecodeCommit(h, data)
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
