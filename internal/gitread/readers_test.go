package gitread

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// realIndex returns the index file of a small repository, in the given
// index version, with a cache tree.
func realIndex(t testing.TB, version string) []byte {
	r := newRepo(t)
	r.Write(".small/progress.small.yml", "p")
	r.Write("a/.small/plan.small.yml", "q")
	r.Write("src/x.go", "x")
	r.Commit("one")
	r.Git("update-index", "--index-version", version)
	data, err := os.ReadFile(filepath.Join(r.Dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// resum replaces an index's trailing checksum with the right one.
func resum(data []byte) []byte {
	body := data[:len(data)-hashLen]
	sum := sha1.Sum(body)
	return append(append([]byte{}, body...), sum[:]...)
}

func TestIndexReaderRefusesCorruptIndexes(t *testing.T) {
	good := realIndex(t, "3")
	if _, err := parseIndex(good, Scope{}); err != nil {
		t.Fatal(err)
	}
	extended := append([]byte{}, good[:12+entryFixedSize]...)
	binary.BigEndian.PutUint16(extended[12+60:], 0x4000) // extended flags, then nothing
	extended = resum(append(extended, make([]byte, hashLen)...))
	many := append([]byte{}, good...)
	binary.BigEndian.PutUint32(many[8:], 1<<30)
	tree := append([]byte{}, good...)
	at := bytes.Index(tree, []byte("TREE"))
	binary.BigEndian.PutUint32(tree[at+4:], 1<<20)
	for name, data := range map[string][]byte{
		"extended flags cut short":   extended,
		"more entries than bytes":    resum(many),
		"extension larger than file": resum(tree),
		"not an index":               []byte("hello"),
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := parseIndex(data, Scope{All: true}); err == nil {
				t.Error("no error")
			}
		})
	}
}

// TestIndexReaderAcceptsSkipHash: git writes zeros for the checksum with
// index.skipHash, which the reader accepts.
func TestIndexReaderAcceptsSkipHash(t *testing.T) {
	data := realIndex(t, "2")
	copy(data[len(data)-hashLen:], make([]byte, hashLen))
	idx, err := parseIndex(data, Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if len(idx.Entries) != 2 || idx.Tree == nil || !idx.Tree.Valid {
		t.Errorf("entries %v, cache tree %+v", idx.Entries, idx.Tree)
	}
}

// TestIndexChecksumIsVerified: a byte of the index changed on disk is an
// error naming the index, whether or not the change still decodes; zeros
// in place of the checksum (index.skipHash) are not.
func TestIndexChecksumIsVerified(t *testing.T) {
	for name, c := range map[string]struct {
		edit func([]byte)
		want string
	}{
		"a path's byte flipped": {func(d []byte) { d[12+entryFixedSize+1] ^= 1 }, "checksum mismatch"},
		"the checksum flipped":  {func(d []byte) { d[len(d)-1] ^= 1 }, "checksum mismatch"},
		"skipHash zeros":        {func(d []byte) { copy(d[len(d)-hashLen:], make([]byte, hashLen)) }, ""},
	} {
		t.Run(name, func(t *testing.T) {
			r := newRepo(t)
			r.Write(".small/progress.small.yml", "p")
			r.Commit("one")
			path := filepath.Join(r.Dir, ".git", "index")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			c.edit(data)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			repo, err := Open(r.Dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Reader.Close()
			_, err = repo.Reader.Index(Scope{})
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("unexpected error: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), path)):
				t.Fatalf("got %v, want an error naming %s with %q", err, path, c.want)
			}
		})
	}
}

func FuzzParseIndex(f *testing.F) {
	for _, v := range []string{"2", "3", "4"} {
		f.Add(realIndex(f, v))
	}
	nested := newRepo(f)
	for _, p := range []string{"README", "a/b/x", "a/b/y", "a/b/.small/p", "a/b/.small/q", "a/c/artifacts/n.md", "a/c/z", "a/d", "b/.SMALL/p"} {
		nested.Write(p, p)
	}
	nested.Commit("nested")
	for _, v := range []string{"2", "4"} {
		nested.Git("update-index", "--index-version", v)
		data, err := os.ReadFile(filepath.Join(nested.Dir, ".git", "index"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, scope := range []Scope{{}, {All: true}} {
			idx, err := parseIndex(data, scope)
			if err != nil {
				continue
			}
			for _, e := range idx.Entries {
				if !scope.ContainsPath(e.Path) {
					t.Fatalf("%q is out of scope", e.Path)
				}
			}
		}
		// Asking once per directory keeps exactly what asking for every
		// path keeps.
		each, err1 := parseIndexWith(data, inCommonScope[[]byte], false)
		byDir, err2 := parseIndexWith(data, inCommonScope[[]byte], true)
		if (err1 == nil) != (err2 == nil) || err1 == nil && fmt.Sprint(each.Entries) != fmt.Sprint(byDir.Entries) {
			t.Fatalf("by directory %v (%v), path by path %v (%v)", byDir, err2, each, err1)
		}
	})
}

// looseObject compresses a blob as git stores it and returns it with its id.
func looseObject(header string, body []byte) ([]byte, plumbing.Hash) {
	var buf bytes.Buffer
	z := zlib.NewWriter(&buf)
	z.Write([]byte(header))
	z.Write(body)
	z.Close()
	sum := sha1.Sum(append([]byte(header), body...))
	return buf.Bytes(), plumbing.Hash(sum)
}

func TestLooseObjectsAreVerified(t *testing.T) {
	body := []byte("entries: []\n")
	good, id := looseObject(fmt.Sprintf("blob %d\x00", len(body)), body)
	if kind, got, err := inflateObject(good, id); err != nil || kind != plumbing.BlobObject || !bytes.Equal(got, body) {
		t.Fatalf("a good object: %v %q, %v", kind, got, err)
	}
	tree, treeID := looseObject(fmt.Sprintf("tree %d\x00", len(body)), body)
	if kind, _, err := inflateObject(tree, treeID); err != nil || kind != plumbing.TreeObject {
		t.Fatalf("a tree: %v, %v", kind, err)
	}
	huge, hugeID := looseObject("blob 9000000000000000000\x00", body)
	short, shortID := looseObject("blob 100\x00", body)
	long, longID := looseObject("blob 3\x00", body)
	delta, deltaID := looseObject(fmt.Sprintf("ofs-delta %d\x00", len(body)), body)
	padded, paddedID := looseObject(fmt.Sprintf("blob 0%d\x00", len(body)), body)
	other := id
	other[0] ^= 1
	for name, c := range map[string]struct {
		data []byte
		id   plumbing.Hash
		want string
	}{
		"declared size beyond any inflation": {huge, hugeID, "more than"},
		"shorter than declared":              {short, shortID, "corrupt"},
		"longer than declared":               {long, longID, "more data"},
		"a pack's delta type":                {delta, deltaID, "not a well-formed object header"},
		"size with a leading zero":           {padded, paddedID, "not a well-formed object header"},
		"content of another id":              {good, other, "does not match"},
		"not zlib":                           {[]byte("blob 3\x00abc"), id, "not a zlib stream"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, _, err := inflateObject(c.data, c.id); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %v, want an error with %q", err, c.want)
			}
		})
	}
}

func FuzzInflateBlob(f *testing.F) {
	body := []byte("small_version: \"1.0.0\"\n")
	good, _ := looseObject(fmt.Sprintf("blob %d\x00", len(body)), body)
	f.Add(good)
	f.Add([]byte{0x78, 0x9c})
	f.Fuzz(func(t *testing.T, data []byte) {
		// Whatever the bytes, the reader returns an error or content whose
		// id it checked; it never panics or allocates what the data cannot
		// hold.
		if len(data) < 2 {
			return
		}
		var id plumbing.Hash
		if kind, got, err := inflateObject(data, id); err == nil {
			sum := sha1.Sum(append([]byte(fmt.Sprintf("%s %d\x00", kind, len(got))), got...))
			if plumbing.Hash(sum) != id {
				t.Fatal("accepted content that does not match the id")
			}
		}
	})
}

// TestIndexScopesShareOneDecoding: whatever order the scopes are asked
// in, the index decoded once for most of them gives each scope exactly
// the entries a decoding for that scope alone gives.
func TestIndexScopesShareOneDecoding(t *testing.T) {
	r := newRepo(t)
	for _, p := range []string{".small-hook.yml", ".gitleaks.toml", "README.md", ".small/progress.small.yml", "a/.SMALL/x", "a/artifacts/n.md", "docs/guide.md", "src/x/.awp/key.pem"} {
		r.Write(p, p)
	}
	r.Commit("files")
	data, err := os.ReadFile(filepath.Join(r.Dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	scopes := []Scope{{Only: []string{".small-hook.yml", ".gitleaksignore"}}, {}, {Only: []string{"docs/guide.md", ".small-hook.yml"}}, {All: true}, {Only: []string{}}, {Only: []string{"a/.SMALL/x"}}}
	for _, order := range [][]int{{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {1, 3, 0, 2, 5, 4}} {
		g := r.open()
		for _, i := range order {
			got, err := g.Reader.Index(scopes[i])
			if err != nil {
				t.Fatal(err)
			}
			want, err := parseIndex(data, scopes[i])
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got.Entries) != fmt.Sprint(want.Entries) || (got.Tree == nil) != (want.Tree == nil) {
				t.Errorf("scope %+v: %v, want %v", scopes[i], got.Entries, want.Entries)
			}
		}
		if err := g.Reader.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLargeLooseObjectsAreVerifiedWhileInflated: an object large enough to
// be hashed along its inflation is read whole and checked the same way.
func TestLargeLooseObjectsAreVerifiedWhileInflated(t *testing.T) {
	body := bytes.Repeat([]byte("    - task_id: task-1\n      evidence: passed\n"), 3*minHashAlong/40)
	good, id := looseObject(fmt.Sprintf("blob %d\x00", len(body)), body)
	kind, got, err := inflateObject(good, id)
	if err != nil || kind != plumbing.BlobObject || !bytes.Equal(got, body) {
		t.Fatalf("%v, %d bytes, %v", kind, len(got), err)
	}
	for _, prefix := range []int{0, 1, hashAlongChunk - 1, hashAlongChunk, hashAlongChunk + 1, len(body) / 2, len(body) - 1, len(body)} {
		_, _, sum, err := new(inflaters).inflatePrefix(good, id, int64(prefix))
		if err != nil || !bytes.Equal(sum, BlobID(body[:prefix])) {
			t.Fatalf("prefix %d: %x, %v", prefix, sum, err)
		}
	}
	if _, _, sum, err := new(inflaters).inflatePrefix(good, id, int64(len(body)+1)); err != nil || sum != nil {
		t.Fatalf("a prefix beyond the content: %x, %v", sum, err)
	}
	other := id
	other[19] ^= 1
	short, shortID := looseObject(fmt.Sprintf("blob %d\x00", len(body)+hashAlongChunk/2), body)
	for name, c := range map[string]struct {
		data []byte
		id   plumbing.Hash
	}{"another id": {good, other}, "shorter than declared": {short, shortID}} {
		if _, _, err := inflateObject(c.data, c.id); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// withExtension returns index data with one more extension, empty, before
// the checksum.
func withExtension(data []byte, sig string) []byte {
	body := append([]byte{}, data[:len(data)-hashLen]...)
	body = append(append(body, sig...), 0, 0, 0, 0)
	return resum(append(body, make([]byte, hashLen)...))
}

// TestUnknownMandatoryIndexExtensionIsRefused: git refuses an index with an
// extension it must understand (a lower-case signature) and does not, and
// ignores an optional one (upper case) it does not know. So does
// small-hook: the fast decoder refuses the first, and the probe leaves such
// an index to git, whose refusal is the check's error.
func TestUnknownMandatoryIndexExtensionIsRefused(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/constraints.small.yml", "a1")
	r.Commit("one")
	r.Write(".small/constraints.small.yml", "a2")
	r.Git("add", "-A")
	staged := fmt.Sprintf("[{.small/constraints.small.yml %s %d 0}]", r.Git("rev-parse", ":.small/constraints.small.yml"), 0o100644)
	path := filepath.Join(r.Dir, ".git", "index")
	good, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sig    string
		reader string
	}{{"abcd", ReaderGit}, {"ABCD", ReaderFast}} {
		data := withExtension(good, tc.sig)
		_, parseErr := parseIndex(data, Scope{})
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, gitErr := r.Try("ls-files")
		g := r.open()
		idx, err := g.Reader.Index(Scope{})
		reader := g.Reader.Name()
		g.Reader.Close()
		switch {
		case reader != tc.reader:
			t.Errorf("%s: read by %s, want %s", tc.sig, reader, tc.reader)
		case tc.sig == "abcd" && (gitErr == nil || parseErr == nil || err == nil || !strings.Contains(err.Error(), "abcd")):
			t.Errorf("%s: git says %v; the decoder says %v; the staged check says %v", tc.sig, gitErr, parseErr, err)
		case tc.sig == "ABCD" && (gitErr != nil || parseErr != nil || err != nil || fmt.Sprint(idx.Entries) != fmt.Sprint(staged)):
			t.Errorf("%s: git says %v; the decoder says %v; the reader says %v, %v (git: %v)", tc.sig, gitErr, parseErr, err, idx, staged)
		}
	}
}

// TestIndexOutOfOrderIsRefused: git reads an index whose entries are not
// in path order or that lists a path twice, and commits from it a tree that
// `git fsck` refuses (not sorted, or a name twice), which go-git and git
// read differently. Both readers refuse such an index.
func TestIndexOutOfOrderIsRefused(t *testing.T) {
	for _, name := range []string{"out of order", "listed twice"} {
		r := newRepo(t)
		r.Write(".small/a", "first")
		r.Write(".small/b", "second")
		r.Commit("two")
		path := filepath.Join(r.Dir, ".git", "index")
		good, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		// Both entries take the same bytes: their paths have the same length.
		size := (entryFixedSize + len(".small/a") + 8) &^ 7
		first, second := good[12:12+size], good[12+size:12+2*size]
		order := [2][]byte{second, first}
		if name == "listed twice" {
			order = [2][]byte{first, first}
		}
		data := append(append(append(append([]byte{}, good[:12]...), order[0]...), order[1]...), good[12+2*size:]...)
		if err := os.WriteFile(path, resum(data), 0o644); err != nil {
			t.Fatal(err)
		}
		tree := r.Git("write-tree")
		if _, err := r.Try("fsck", "--strict", "--no-dangling"); err == nil {
			t.Fatalf("%s: git fsck accepts the tree git writes from the index, %s", name, tree)
		}
		for _, asked := range []string{"", ReaderGit} {
			g := r.openWith(map[string]string{"SMALL_HOOK_READER": asked})
			if _, err := g.Reader.Index(Scope{}); err == nil || !strings.Contains(err.Error(), name) || !strings.Contains(err.Error(), "`git read-tree HEAD`") {
				t.Errorf("%s, reader %q: %v", name, asked, err)
			}
			g.Reader.Close()
		}
		// The advice works: git read-tree HEAD rebuilds the index.
		r.Git("read-tree", "HEAD")
		if _, err := r.open().Reader.Index(Scope{}); err != nil {
			t.Errorf("%s, after git read-tree HEAD: %v", name, err)
		}
	}
}

func TestIndexReaderAgreesWithGoGit(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t)
			for i := 0; i < 300; i++ {
				r.Write(fmt.Sprintf("d%d/%s/file-%03d.txt", i%7, strings.Repeat("long", i%5), i), fmt.Sprint(i))
			}
			r.Write(".small/progress.small.yml", "p")
			r.Commit("files")
			if version == "3" {
				r.Git("update-index", "--skip-worktree", "d1/long/file-001.txt")
			}
			r.Git("update-index", "--index-version", version)
			data, err := os.ReadFile(filepath.Join(r.Dir, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			var want index.Index
			if err := index.NewDecoder(bytes.NewReader(data)).Decode(&want); err != nil {
				t.Fatal(err)
			}
			idx, err := parseIndex(data, Scope{All: true})
			if err != nil {
				t.Fatal(err)
			}
			got := idx.Entries
			if len(got) != len(want.Entries) {
				t.Fatalf("%d entries, go-git has %d", len(got), len(want.Entries))
			}
			for i, e := range want.Entries {
				if got[i].Path != e.Name || got[i].Hash != e.Hash || got[i].Mode != uint32(e.Mode) {
					t.Fatalf("entry %d: %+v, go-git %s %s %o", i, got[i], e.Name, e.Hash, e.Mode)
				}
			}
		})
	}
}
