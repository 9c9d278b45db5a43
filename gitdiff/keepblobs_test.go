package gitdiff

import (
	"slices"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
)

// TestKeepBlobs: the blob cache keeps exactly the new versions of the
// unit's changes, under every key that holds them.
func TestKeepBlobs(t *testing.T) {
	a, b, c := &changes.Blob{Hash: "a"}, &changes.Blob{Hash: "b"}, &changes.Blob{Hash: "c"}
	r := &Repo{blobs: map[string]*changes.Blob{"a file": a, "a again": a, "b file": b, "c file": c}}
	r.keepBlobs(changes.Unit{Changes: []changes.Change{{Path: "x", New: a}, {Path: "y", Old: b}, {Path: "z", New: c, Old: b}}})
	var keys []string
	for k := range r.blobs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if want := []string{"a again", "a file", "c file"}; !slices.Equal(keys, want) {
		t.Errorf("kept %q, want %q", keys, want)
	}
}
