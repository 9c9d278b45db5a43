package gitdiff

import (
	"bytes"
	"cmp"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/internal/changes"
)

// TestKeepBlobs: the blob cache keeps exactly the new versions of the
// unit's changes, under every key that holds them.
func TestKeepBlobs(t *testing.T) {
	a, b, c := &changes.Blob{Hash: "a"}, &changes.Blob{Hash: "b"}, &changes.Blob{Hash: "c"}
	key := func(n byte, kind changes.Kind) versionKey { return versionKey{plumbing.Hash{n}, kind} }
	r := &Repo{blobs: map[versionKey]*changes.Blob{key(1, changes.KindFile): a, key(1, changes.KindSymlink): a, key(2, changes.KindFile): b, key(3, changes.KindFile): c}}
	r.keepBlobs(changes.Unit{Changes: []changes.Change{{Path: "x", New: a}, {Path: "y", Old: b}, {Path: "z", New: c, Old: b}}})
	var kept []versionKey
	for k := range r.blobs {
		kept = append(kept, k)
	}
	slices.SortFunc(kept, func(x, y versionKey) int {
		return cmp.Or(bytes.Compare(x.hash[:], y.hash[:]), cmp.Compare(x.kind, y.kind))
	})
	if want := []versionKey{key(1, changes.KindFile), key(1, changes.KindSymlink), key(3, changes.KindFile)}; !slices.Equal(kept, want) {
		t.Errorf("kept %v, want %v", kept, want)
	}
}
