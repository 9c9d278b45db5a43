package gitdiff

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
)

// TestSlicesReadWhatDiffLeavesUnread stages enough new files for the diff
// to leave their versions unread (and one change a prefix proof may
// need): the unit holds none of their bytes, and its slices, read on
// several readers, hold what was written. A loose object corrupted among
// them is an error of the slice that reads it, naming the object.
func TestSlicesReadWhatDiffLeavesUnread(t *testing.T) {
	r := newRepo(t)
	r.Write("grown.txt", strings.Repeat("old line\n", 8000))
	r.Commit("base")
	n := 4 * minPrefetch
	want := map[string]string{"grown.txt": strings.Repeat("old line\n", 8000) + "new line\n"}
	for i := range n {
		want[fmt.Sprintf("d%02d/f%04d.txt", i%20, i)] = fmt.Sprintf("file %d\n", i)
	}
	for path, content := range want {
		r.Write(path, content)
	}
	r.Git("add", "-A")
	g := r.open()
	u, err := g.Staged(Scope{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Changes) != len(want) {
		t.Fatalf("%d changes, want %d", len(u.Changes), len(want))
	}
	for _, ch := range u.Changes {
		if !ch.New.Unread || ch.New.Data != nil || ch.Old != nil && !ch.Old.Unread {
			t.Fatalf("%s: the unit holds a version (%+v, %+v)", ch.Path, ch.New, ch.Old)
		}
	}
	seen := 0
	err = u.EachSlice(4096, func(s *changes.Unit) error {
		for _, ch := range s.Changes {
			seen++
			if ch.New == nil || ch.New.Unread || string(ch.New.Data) != want[ch.Path] {
				t.Fatalf("%s: new version %v, want %q", ch.Path, ch.New, want[ch.Path])
			}
			if ch.Path == "grown.txt" && (string(ch.Old.Data) != strings.Repeat("old line\n", 8000) || !sharesMemory(ch.Old.Data, ch.New.Data)) {
				t.Fatalf("grown.txt: the old version is not the new one's prefix")
			}
			if b, err := s.Files.Read(ch.Path); err != nil || b != ch.New {
				t.Fatalf("%s: the slice's snapshot gives %v (%v), not its version", ch.Path, b, err)
			}
		}
		return nil
	})
	if err != nil || seen != len(want) {
		t.Fatalf("the slices gave %d changes (%v), want %d", seen, err, len(want))
	}
	if len(g.load.twins) == 0 && runtime.GOMAXPROCS(0) > 1 {
		t.Error("the slices were read on one reader")
	}
	g.Close()

	id := r.Git("rev-parse", ":d07/f0007.txt")
	loose := filepath.Join(r.Dir, ".git", "objects", id[:2], id[2:])
	if err := os.Chmod(loose, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(loose, []byte("not zlib"), 0o644); err != nil {
		t.Fatal(err)
	}
	g = r.open()
	defer g.Close()
	u, err = g.Staged(Scope{All: true})
	if err != nil {
		t.Fatal(err)
	}
	err = u.EachSlice(4096, func(*changes.Unit) error { return nil })
	if err == nil || !strings.Contains(err.Error(), id) {
		t.Fatalf("a corrupt object among the unread: error %v, want one naming %s", err, id)
	}
}

// TestStagedMemoryFollowsASlice stages n and then 2n files of 32 KiB and
// measures the live heap while each slice of the staged unit is judged:
// what the n more files add is their bookkeeping (paths, ids, index
// entries), a small part of their bytes. A unit that held every file's
// bytes would grow by all of them.
func TestStagedMemoryFollowsASlice(t *testing.T) {
	const size = 32 << 10
	live := func(n int) (peak uint64) {
		r := newRepo(t)
		for i := range n {
			r.Write(fmt.Sprintf("ws%04d/data.txt", i), strings.Repeat(fmt.Sprintf("line %d of a large file\n", i), size/16)[:size])
		}
		r.Git("add", "-A")
		g := r.open()
		defer g.Close()
		u, err := g.Staged(Scope{All: true})
		if err != nil {
			t.Fatal(err)
		}
		slices := 0
		err = u.EachSlice(256<<10, func(s *changes.Unit) error {
			slices++
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			return nil
		})
		if err != nil || slices < 8 {
			t.Fatalf("%d slices (%v), want several", slices, err)
		}
		runtime.KeepAlive(u)
		return peak
	}
	n := 2 * minPrefetch
	small := live(n)
	large := live(2 * n)
	added := int64(large) - int64(small)
	if limit := int64(n) * size / 4; added > limit {
		t.Errorf("%d more files of %d bytes add %d bytes to the live heap, more than %d: the unit holds their bytes", n, size, added, limit)
	}
}
