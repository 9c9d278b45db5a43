package gitread

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// historyRepo builds a repository whose files change a little in every
// commit, so that packing stores most objects as deltas, with a file
// larger than a delta's 64 KiB copy unit.
func historyRepo(t *testing.T) *repo {
	t.Helper()
	r := newRepo(t)
	rng := rand.New(rand.NewSource(3))
	var progress strings.Builder
	progress.WriteString("entries:\n")
	for i := 0; i < 40; i++ {
		for k := 0; k < 200; k++ {
			fmt.Fprintf(&progress, "  - task_id: task-%d\n    evidence: run %d of %d\n", rng.Intn(9), k, i)
		}
		r.Write(".small/progress.small.yml", progress.String())
		r.Write(fmt.Sprintf("src/d%d/f%d.go", i%4, rng.Intn(6)), strings.Repeat(fmt.Sprintf("line %d\n", i), 1+rng.Intn(50)))
		r.Write("docs/readme.md", fmt.Sprintf("version %d\n%s", i, strings.Repeat("text\n", 100)))
		r.Commit(fmt.Sprint("commit ", i))
	}
	return r
}

// allObjects lists every object id of the repository.
func allObjects(t *testing.T, r *repo) []plumbing.Hash {
	t.Helper()
	var out []plumbing.Hash
	for _, line := range strings.Split(r.Git("cat-file", "--batch-all-objects", "--batch-check=%(objectname)"), "\n") {
		out = append(out, plumbing.NewHash(line))
	}
	return out
}

// agreeWithGoGit reads every object with objectStore and with go-git's
// own storage, and fails on any difference.
func agreeWithGoGit(t *testing.T, r *repo, wantPacked bool) {
	t.Helper()
	dir := filepath.Join(r.Dir, ".git", "objects")
	s := newObjectStore(dir)
	defer s.close()
	gogit := filesystem.NewStorage(osfs.New(filepath.Join(r.Dir, ".git")), cache.NewObjectLRUDefault())
	packed := 0
	for _, h := range allObjects(t, r) {
		kind, data, err := s.read(h)
		if err != nil {
			t.Fatalf("%s: %v", h, err)
		}
		obj, err := gogit.EncodedObject(plumbing.AnyObject, h)
		if err != nil {
			t.Fatalf("go-git %s: %v", h, err)
		}
		rd, err := obj.Reader()
		if err != nil {
			t.Fatal(err)
		}
		want, err := io.ReadAll(rd)
		if err != nil {
			t.Fatal(err)
		}
		if kind != obj.Type() || !bytes.Equal(data, want) {
			t.Fatalf("%s: %s of %d bytes, go-git %s of %d bytes", h, kind, len(data), obj.Type(), len(want))
		}
		if _, _, found, _ := s.locate(h); found {
			packed++
		}
	}
	if wantPacked && packed == 0 {
		t.Fatal("no object was read from a pack")
	}
}

func TestObjectStoreAgreesWithGoGit(t *testing.T) {
	r := historyRepo(t)
	t.Run("loose", func(t *testing.T) { agreeWithGoGit(t, r, false) })
	r.Git("gc", "-q", "--aggressive")
	t.Run("gc --aggressive (offset deltas)", func(t *testing.T) { agreeWithGoGit(t, r, true) })
	r.Git("-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq")
	t.Run("deltas by object id", func(t *testing.T) { agreeWithGoGit(t, r, true) })
	r.Write("docs/readme.md", "new\n")
	r.Commit("loose on top of packs")
	r.Git("repack", "-dq") // a second pack beside the first
	r.Write("docs/readme.md", "newer\n")
	r.Commit("loose again")
	t.Run("two packs and loose objects", func(t *testing.T) { agreeWithGoGit(t, r, true) })
	packs, err := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "pack", "*.pack"))
	if err != nil || len(packs) == 0 {
		t.Fatal(packs, err)
	}
	for _, p := range packs {
		// Every object after the first kilobyte gets a 64-bit offset.
		r.Git("index-pack", "--index-version=2,1000", "-o", strings.TrimSuffix(p, ".pack")+".idx", p)
	}
	t.Run("64-bit offsets", func(t *testing.T) { agreeWithGoGit(t, r, true) })
}

func TestObjectStoreRefusesCorruptPacks(t *testing.T) {
	r := historyRepo(t)
	r.Git("gc", "-q")
	packs, err := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "pack", "*.pack"))
	if err != nil || len(packs) != 1 {
		t.Fatal(packs, err)
	}
	data, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	// Change one byte in the middle of the pack: whichever object it
	// falls in reads as corrupt (its zlib stream or its id no longer
	// matches), and every other object still reads correctly.
	data[len(data)/2] ^= 0x40
	if err := os.Chmod(packs[0], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(packs[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	s := newObjectStore(filepath.Join(r.Dir, ".git", "objects"))
	defer s.close()
	corrupt := 0
	for _, h := range allObjects(t, r) {
		kind, data, err := s.read(h)
		switch {
		case errors.Is(err, plumbing.ErrObjectNotFound):
			t.Fatalf("%s: not found", h)
		case err != nil:
			corrupt++
		case verify(kind, data, h) != nil:
			t.Fatalf("%s: returned content that is not the object", h)
		}
	}
	if corrupt == 0 {
		t.Fatal("no object was found corrupt")
	}
}

func TestApplyDeltaRefusesBadDeltas(t *testing.T) {
	base := []byte("0123456789")
	for name, delta := range map[string][]byte{
		"base size differs":       {9, 4, 0x91, 0, 4},
		"copy beyond the base":    {10, 4, 0x91, 8, 4},
		"result longer":           {10, 2, 0x91, 0, 4},
		"result shorter":          {10, 6, 0x91, 0, 4},
		"insertion cut short":     {10, 4, 4, 'a', 'b'},
		"reserved instruction":    {10, 1, 1, 0x61, 0},
		"shorter than git reads":  {0, 0},
		"truncated copy":          {10, 4, 0x91, 0},
		"size beyond 64 bits":     {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 1},
		"no sizes":                {},
		"copy size 0 is 64 KiB":   {10, 4, 0x81, 0},
		"insertion beyond result": {10, 1, 2, 'a', 'b'},
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := applyDelta(base, delta); err == nil {
				t.Errorf("accepted, made %q", got)
			}
		})
	}
	// Refused for its declared size, before any copy is made.
	huge := []byte{10, 0x80, 0x80, 0x80, 0x80, 0x04}
	for range 1000 {
		huge = append(huge, 0x91, 0, 10)
	}
	if _, err := applyDelta(base, huge); err == nil || !strings.Contains(err.Error(), "bigFileThreshold") {
		t.Errorf("a 1 GiB result: %v", err)
	}
	got, err := applyDelta(base, []byte{10, 7, 0x91, 2, 3, 4, 'a', 'b', 'c', 'd'})
	if err != nil || string(got) != "234abcd" {
		t.Fatalf("%q, %v", got, err)
	}
}

// FuzzApplyDelta compares applyDelta with go-git's: whatever it accepts,
// go-git builds the same result from. The base is unit repeated, so that
// bases beyond the 64 KiB a copy instruction of size 0 takes stay small
// inputs for the fuzzer to mutate.
// goGitPatch applies delta to base with go-git. Its PatchDelta refuses any
// delta of an empty base, which git's patch_delta applies; its streaming
// reader does not.
func goGitPatch(base, delta []byte) ([]byte, error) {
	if len(base) > 0 {
		return packfile.PatchDelta(base, delta)
	}
	obj := &plumbing.MemoryObject{}
	obj.SetType(plumbing.BlobObject)
	rd, err := packfile.ReaderFromDelta(obj, bytes.NewReader(delta))
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("0123456789"), uint16(1), []byte{10, 7, 0x91, 2, 3, 4, 'a', 'b', 'c', 'd'})
	f.Add([]byte("ab"), uint16(40000), []byte{0x80, 0xf1, 0x04, 0x80, 0x80, 0x04, 0x80, 0x81, 0})
	f.Fuzz(func(t *testing.T, unit []byte, repeat uint16, delta []byte) {
		if len(unit)*int(repeat) > 256<<10 {
			return
		}
		base := bytes.Repeat(unit, int(repeat))
		// Results up to 1 MiB keep each run short: one byte of delta can
		// copy 64 KiB of the base (the size limit has its own test).
		if _, n := deltaSize(delta); n > 0 {
			if size, m := deltaSize(delta[n:]); m > 0 && size > 1<<20 {
				return
			}
		}
		got, err := applyDelta(base, delta)
		if err != nil {
			return
		}
		want, err := goGitPatch(base, delta)
		if err != nil {
			t.Fatalf("go-git refuses what applyDelta made into %q: %v", got, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("applyDelta %q, go-git %q", got, want)
		}
	})
}

// FuzzCommitParents compares commitParents with go-git's decoding of the
// same commit: the same parents whenever go-git decodes it, and an error
// only where go-git gives one too.
func FuzzCommitParents(f *testing.F) {
	tree := strings.Repeat("4b", 20)
	parent := strings.Repeat("a0", 20)
	f.Add([]byte("tree " + tree + "\nparent " + parent + "\nparent " + strings.ToUpper(parent) + "\nauthor A <a@b> 1 +0000\n\nmsg\n"))
	f.Add([]byte("tree " + tree + "\nauthor A <a@b> 1 +0000\nparent " + parent + "\n\nmsg"))
	f.Add([]byte("tree " + tree))
	f.Add([]byte("tree " + tree + "\nparent " + parent))
	f.Add([]byte("tree " + tree + "\n\nparent " + parent + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := CommitParents(data)
		var c object.Commit
		obj := &plumbing.MemoryObject{}
		obj.SetType(plumbing.CommitObject)
		obj.Write(data)
		werr := c.Decode(obj)
		switch {
		case werr != nil && err == nil:
			// Lenient where go-git is strict is allowed only for what
			// comes after the parents, which a walk does not read.
			if errors.Is(werr, object.ErrMalformedCommit) && strings.Contains(werr.Error(), "hash") {
				t.Fatalf("go-git: %v; commitParents: %v", werr, got)
			}
		case werr == nil && err != nil:
			t.Fatalf("go-git decodes it, commitParents: %v", err)
		case werr == nil && fmt.Sprint(got) != fmt.Sprint(c.ParentHashes):
			t.Fatalf("parents %v, go-git %v", got, c.ParentHashes)
		}
	})
}
