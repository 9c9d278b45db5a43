package gitdiff

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
)

// realIndex returns the index file of a small repository, in the given
// index version, with a cache tree.
func realIndex(t testing.TB, version string) []byte {
	r := newRepo(t)
	r.write(".small/progress.small.yml", "p")
	r.write("a/.small/plan.small.yml", "q")
	r.write("src/x.go", "x")
	r.commit("one")
	r.git("update-index", "--index-version", version)
	data, err := os.ReadFile(filepath.Join(r.dir, ".git", "index"))
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
	flipped := append([]byte{}, good...)
	flipped[40] ^= 1
	extended := append([]byte{}, good[:12+entryFixedSize]...)
	binary.BigEndian.PutUint16(extended[12+60:], 0x4000) // extended flags, then nothing
	extended = resum(append(extended, make([]byte, hashLen)...))
	many := append([]byte{}, good...)
	binary.BigEndian.PutUint32(many[8:], 1<<30)
	tree := append([]byte{}, good...)
	at := bytes.Index(tree, []byte("TREE"))
	binary.BigEndian.PutUint32(tree[at+4:], 1<<20)
	for name, data := range map[string][]byte{
		"checksum mismatch":          flipped,
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

func TestIndexReaderAcceptsSkipHash(t *testing.T) {
	data := realIndex(t, "2")
	copy(data[len(data)-hashLen:], make([]byte, hashLen))
	idx, err := parseIndex(data, Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if len(idx.entries) != 2 || idx.tree == nil || !idx.tree.valid {
		t.Errorf("entries %v, cache tree %+v", idx.entries, idx.tree)
	}
}

func FuzzParseIndex(f *testing.F) {
	for _, v := range []string{"2", "3", "4"} {
		f.Add(realIndex(f, v))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, scope := range []Scope{{}, {All: true}} {
			idx, err := parseIndex(data, scope)
			if err != nil {
				continue
			}
			for _, e := range idx.entries {
				if !scope.containsPath(e.path) {
					t.Fatalf("%q is out of scope", e.path)
				}
			}
		}
		// The checksum guards the structure; the parser must hold even
		// when the checksum is right.
		if len(data) > hashLen {
			parseIndex(resum(data), Scope{All: true})
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
	if got, err := inflateBlob(good, id); err != nil || !bytes.Equal(got, body) {
		t.Fatalf("a good object: %q, %v", got, err)
	}
	huge, hugeID := looseObject("blob 9000000000000000000\x00", body)
	short, shortID := looseObject("blob 100\x00", body)
	long, longID := looseObject("blob 3\x00", body)
	tree, treeID := looseObject(fmt.Sprintf("tree %d\x00", len(body)), body)
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
		"not a blob":                         {tree, treeID, "not a well-formed blob"},
		"size with a leading zero":           {padded, paddedID, "not a well-formed blob"},
		"content of another id":              {good, other, "does not match"},
		"not zlib":                           {[]byte("blob 3\x00abc"), id, "not a zlib stream"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := inflateBlob(c.data, c.id); err == nil || !strings.Contains(err.Error(), c.want) {
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
		if got, err := inflateBlob(data, id); err == nil {
			sum := sha1.Sum(append([]byte(fmt.Sprintf("blob %d\x00", len(got))), got...))
			if plumbing.Hash(sum) != id {
				t.Fatal("accepted content that does not match the id")
			}
		}
	})
}
