package gitdiff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrefetchReadsWhatDiffReads stages enough new files for the diff to
// read them on several readers (and one change that a prefix proof may
// need, which is left to the diff): every version holds what was
// written. A loose object corrupted among them is still diff's error,
// naming the object, as without the prefetch.
func TestPrefetchReadsWhatDiffReads(t *testing.T) {
	r := newRepo(t)
	r.Write("grown.txt", strings.Repeat("old line\n", 200))
	r.Commit("base")
	n := 4 * minPrefetch
	want := map[string]string{"grown.txt": strings.Repeat("old line\n", 200) + "new line\n"}
	for i := range n {
		want[fmt.Sprintf("d%02d/f%04d.txt", i%20, i)] = fmt.Sprintf("file %d\n", i)
	}
	for path, content := range want {
		r.Write(path, content)
	}
	r.Git("add", "-A")
	u, err := r.open().Staged(Scope{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(u.Changes) != len(want) {
		t.Fatalf("%d changes, want %d", len(u.Changes), len(want))
	}
	for _, ch := range u.Changes {
		if ch.New == nil || string(ch.New.Data) != want[ch.Path] {
			t.Fatalf("%s: new version %v, want %q", ch.Path, ch.New, want[ch.Path])
		}
	}

	id := r.Git("rev-parse", ":d07/f0007.txt")
	loose := filepath.Join(r.Dir, ".git", "objects", id[:2], id[2:])
	if err := os.Chmod(loose, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(loose, []byte("not zlib"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = r.open().Staged(Scope{All: true})
	if err == nil || !strings.Contains(err.Error(), id) {
		t.Fatalf("a corrupt object among the prefetched: error %v, want one naming %s", err, id)
	}
}
