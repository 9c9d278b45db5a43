package gitdiff

import (
	"errors"
	"fmt"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gitread"
)

// entry is one in-scope file of a tree or of the index: its object and mode.
type entry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// entries maps a path to its entry.
type entries map[string]entry

// versionKey names a version in the blob cache: its object and its kind
// (a symbolic link can share an object with a file; a file's content does
// not depend on its executable bit).
type versionKey struct {
	hash plumbing.Hash
	kind changes.Kind
}

// keyOf is the versionKey of e.
func keyOf(e entry) versionKey {
	kind := changes.KindFile
	switch e.mode {
	case filemode.Submodule:
		kind = changes.KindSubmodule
	case filemode.Symlink:
		kind = changes.KindSymlink
	}
	return versionKey{e.hash, kind}
}

// keyOfBlob is the versionKey of a Blob the run built.
func keyOfBlob(b *changes.Blob) versionKey {
	return versionKey{plumbing.NewHash(b.Hash), b.Kind}
}

// version returns the Blob of e for a change: the one the run holds, or
// one left unread (changes.Blob.Unread), and not kept, for diff or the
// unit's slices to read (see readFew, loader). A submodule has no content
// to read.
func (r *Repo) version(e entry) *changes.Blob {
	k := keyOf(e)
	if b, ok := r.blobs[k]; ok {
		return b
	}
	return &changes.Blob{Hash: e.hash.String(), Kind: k.kind, Unread: k.kind != changes.KindSubmodule}
}

// blob reads the object of e as a Blob, once per run.
func (r *Repo) blob(e entry) (*changes.Blob, error) {
	k := keyOf(e)
	if b, ok := r.blobs[k]; ok && !b.Unread {
		return b, nil
	}
	b, err := r.content(e)
	if err == nil {
		r.blobs[k] = b
	}
	return b, err
}

// content returns the object of e as a Blob for a snapshot: the version
// the run holds, or one read now and not kept (a slice keeps what it reads
// while it is judged: see changes.Unit.EachSlice).
func (r *Repo) content(e entry) (*changes.Blob, error) {
	k := keyOf(e)
	if b, ok := r.blobs[k]; ok && !b.Unread {
		return b, nil
	}
	b := &changes.Blob{Hash: e.hash.String(), Kind: k.kind}
	if k.kind == changes.KindSubmodule {
		return b, nil
	}
	data, _, err := readBlob(r.reader, e.hash, -1)
	if err != nil {
		return nil, r.explain(err)
	}
	b.Data = data
	return b, nil
}

// blobError is an error reading blob hash, explained by Repo.explain.
type blobError struct {
	hash plumbing.Hash
	err  error
}

func (e *blobError) Error() string { return fmt.Sprintf("reading blob %s: %v", e.hash, e.err) }
func (e *blobError) Unwrap() error { return e.err }

// readBlob reads blob h on rd, with the id of its first prefix bytes when
// the reader hashes it along (see gitread.Reader.Object).
func readBlob(rd gitread.Reader, h plumbing.Hash, prefix int64) ([]byte, []byte, error) {
	kind, data, sum, err := rd.Object(h, prefix)
	if err == nil && kind != plumbing.BlobObject {
		err = fmt.Errorf("object %s is a %s, not a blob", h, kind)
	}
	if err != nil {
		return nil, nil, &blobError{h, err}
	}
	return data, sum, nil
}

// explain explains an error of readBlob as objectError does.
func (r *Repo) explain(err error) error {
	var be *blobError
	if errors.As(err, &be) {
		return r.objectError("blob", be.hash, be.err)
	}
	return err
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

// diff returns the changes between two sets of entries, sorted by path,
// reading their versions when there are few (see readFew).
func (r *Repo) diff(old, new entries) ([]changes.Change, error) {
	var out []changes.Change
	for _, path := range unionPaths(old, new) {
		o, hadOld := old[path]
		n, hasNew := new[path]
		if hadOld && hasNew && o == n {
			continue
		}
		ch := changes.Change{Path: path}
		if hasNew {
			ch.New = r.version(n)
		}
		if hadOld {
			ch.Old = r.version(o)
		}
		out = append(out, ch)
	}
	return out, r.readFew(out)
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
