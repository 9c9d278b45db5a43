package gitdiff

import (
	"errors"
	"fmt"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/small-hook/small-hook/internal/changes"
)

// entry is one in-scope file of a tree or of the index: its object and mode.
type entry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// entries maps a path to its entry.
type entries map[string]entry

// blobKey names a version in the blob cache: its object and its mode (a
// symbolic link can share an object with a file).
func blobKey(e entry) string {
	return e.hash.String() + " " + e.mode.String()
}

// blob reads the object of e as a Blob, once per run.
func (r *Repo) blob(e entry) (*changes.Blob, error) {
	b, _, err := r.blobHashingPrefix(e, -1)
	return b, err
}

// blobHashingPrefix is blob that also returns, when it reads a loose
// object, the id its first prefix bytes would have as a blob (see
// oldBlob); nil otherwise.
func (r *Repo) blobHashingPrefix(e entry, prefix int64) (*changes.Blob, []byte, error) {
	key := blobKey(e)
	if b, ok := r.blobs[key]; ok {
		return b, nil, nil
	}
	b, hasContent := versionOf(e)
	var sum []byte
	if hasContent {
		if b.Kind == changes.KindSymlink {
			prefix = -1
		}
		data, prefixSum, err := r.readBlob(e.hash, prefix)
		if err != nil {
			return nil, nil, err
		}
		b.Data, sum = data, prefixSum
	}
	r.blobs[key] = b
	return b, sum, nil
}

// versionOf returns the Blob of e, without its content, and whether it
// has content to read (a submodule has none).
func versionOf(e entry) (*changes.Blob, bool) {
	b := &changes.Blob{Hash: e.hash.String(), Kind: changes.KindFile}
	switch e.mode {
	case filemode.Submodule:
		b.Kind = changes.KindSubmodule
		return b, false
	case filemode.Symlink:
		b.Kind = changes.KindSymlink
	}
	return b, true
}

func (r *Repo) readBlob(h plumbing.Hash, prefix int64) ([]byte, []byte, error) {
	kind, data, sum, err := r.reader.Object(h, prefix)
	if err == nil && kind != plumbing.BlobObject {
		err = fmt.Errorf("object %s is a %s, not a blob", h, kind)
	}
	if err != nil {
		return nil, nil, r.objectError("blob", h, err)
	}
	return data, sum, nil
}

// objectError explains a missing object; in a shallow clone that is a sign
// of missing history.
func (r *Repo) objectError(kind string, h plumbing.Hash, err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) && r.isShallow() {
		return fmt.Errorf("%s %s is missing: %w", kind, h, ErrShallow)
	}
	return fmt.Errorf("reading %s %s: %w", kind, h, err)
}

func (r *Repo) isShallow() bool {
	shallow, err := r.storage.Shallow()
	return err == nil && len(shallow) > 0
}

// diff returns the changes between two sets of entries, sorted by path.
func (r *Repo) diff(old, new entries) ([]changes.Change, error) {
	paths := unionPaths(old, new)
	if err := r.prefetch(old, new, paths); err != nil {
		return nil, err
	}
	var out []changes.Change
	for _, path := range paths {
		o, hadOld := old[path]
		n, hasNew := new[path]
		if hadOld && hasNew && o == n {
			continue
		}
		ch := changes.Change{Path: path}
		var err error
		var prefixSum []byte
		if hasNew {
			prefix := int64(-1)
			if hadOld {
				prefix = r.prefixCandidate(o, n)
			}
			if ch.New, prefixSum, err = r.blobHashingPrefix(n, prefix); err != nil {
				return nil, err
			}
		}
		if hadOld {
			if ch.Old, err = r.oldBlob(o, ch.New, prefixSum); err != nil {
				return nil, err
			}
		}
		out = append(out, ch)
	}
	return out, nil
}

func unionPaths(sets ...entries) []string {
	seen := map[string]bool{}
	var paths []string
	for _, s := range sets {
		for p := range s {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	sort.Strings(paths)
	return paths
}
