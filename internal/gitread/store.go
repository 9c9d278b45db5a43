package gitread

import (
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// objectStore reads the objects of a repository itself, loose or packed,
// and checks every object it returns against its id (SHA-1 over the type,
// the size and the content), as git's fsck would: a corrupt object, or a
// mistake in reading one, is an error, never a silent misreading. It reads
// only the repository's own object directory, and packs whose index is of
// version 2: the probe sends every other repository to git (see probe), and
// what it cannot find is missing.
type objectStore struct {
	dir string
	// packs are read on first need: until then, objects are looked for
	// loose first (a hook's staged blobs and HEAD's newest trees usually
	// are), afterwards in the packs first.
	packs       []*pack
	packsLoaded bool
	reading     packReading
	bases       baseCache
	inflaters   inflaters
	// releases unmap the pack indexes.
	releases []func() error
}

func newObjectStore(dir string) *objectStore {
	return &objectStore{dir: dir, bases: baseCache{budget: baseCacheBudget}}
}

// read returns the type and content of object h.
func (s *objectStore) read(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	kind, data, _, err := s.readHashingPrefix(h, -1)
	return kind, data, err
}

// readHashingPrefix is read that, for a loose object, also returns the id
// its first prefix bytes would have as a blob, hashed along with the
// content (nil for a packed object, or when prefix < 0).
func (s *objectStore) readHashingPrefix(h plumbing.Hash, prefix int64) (plumbing.ObjectType, []byte, []byte, error) {
	if !s.packsLoaded {
		if kind, data, sum, err := s.readLoose(h, prefix); !errors.Is(err, plumbing.ErrObjectNotFound) {
			return kind, data, sum, err
		}
		if err := s.loadPacks(); err != nil {
			return plumbing.InvalidObject, nil, nil, err
		}
		kind, data, err := s.readPacked(h)
		return kind, data, nil, err
	}
	kind, data, err := s.readPacked(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return s.readLoose(h, prefix)
	}
	return kind, data, nil, err
}

// readPacked reads h from the first pack that holds it.
func (s *objectStore) readPacked(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	p, off, found, err := s.locate(h)
	if err != nil || !found {
		if err == nil {
			err = plumbing.ErrObjectNotFound
		}
		return plumbing.InvalidObject, nil, err
	}
	kind, data, err := s.resolve(p, off)
	if err != nil {
		return plumbing.InvalidObject, nil, fmt.Errorf("object %s in %s: %w", h, filepath.Base(p.path), err)
	}
	t := packObjectType(kind)
	if err := verify(t, data, h); err != nil {
		return plumbing.InvalidObject, nil, fmt.Errorf("object %s in %s: %w", h, filepath.Base(p.path), err)
	}
	return t, data, nil
}

// locate finds the pack and the offset of h.
func (s *objectStore) locate(h plumbing.Hash) (*pack, uint64, bool, error) {
	for _, p := range s.packs {
		off, ok, err := p.idx.find(h)
		if err != nil {
			return nil, 0, false, fmt.Errorf("%s: %w", filepath.Base(p.path), err)
		}
		if ok {
			return p, off, true, nil
		}
	}
	return nil, 0, false, nil
}

// loadPacks reads the index of every pack; one that does not parse is an
// error (the probe has checked that each is of version 2).
func (s *objectStore) loadPacks() error {
	s.packsLoaded = true
	dir := filepath.Join(s.dir, "pack")
	names, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("listing the packs: %w", err)
	}
	for _, n := range names {
		base, ok := strings.CutSuffix(n.Name(), ".idx")
		if !ok || n.IsDir() {
			continue
		}
		data, release, err := mapFile(filepath.Join(dir, n.Name()))
		if err != nil {
			return fmt.Errorf("reading the pack index %s: %w", n.Name(), err)
		}
		s.releases = append(s.releases, release)
		idx, err := parsePackIndex(data)
		if err != nil {
			return fmt.Errorf("the pack index %s: %w", n.Name(), err)
		}
		s.packs = append(s.packs, &pack{idx: idx, path: filepath.Join(dir, base+".pack")})
	}
	return nil
}

// close closes the pack files and unmaps their indexes; the store reads
// them again if it is used afterwards.
func (s *objectStore) close() error {
	var errs []error
	for _, p := range s.packs {
		errs = append(errs, p.close())
	}
	for _, release := range s.releases {
		errs = append(errs, release())
	}
	s.packs, s.packsLoaded, s.releases, s.bases = nil, false, nil, baseCache{budget: baseCacheBudget}
	return errors.Join(errs...)
}

// readLoose reads a loose object, and the id of its first prefix bytes as
// a blob when prefix >= 0.
func (s *objectStore) readLoose(h plumbing.Hash, prefix int64) (plumbing.ObjectType, []byte, []byte, error) {
	hex := h.String()
	compressed, err := os.ReadFile(filepath.Join(s.dir, hex[:2], hex[2:]))
	if errors.Is(err, os.ErrNotExist) {
		return plumbing.InvalidObject, nil, nil, plumbing.ErrObjectNotFound
	}
	if err != nil {
		return plumbing.InvalidObject, nil, nil, fmt.Errorf("reading object %s: %w", hex, err)
	}
	kind, data, sum, err := s.inflaters.inflatePrefix(compressed, h, prefix)
	if err != nil {
		return plumbing.InvalidObject, nil, nil, fmt.Errorf("object %s: %w", hex, err)
	}
	return kind, data, sum, nil
}

func packObjectType(kind int) plumbing.ObjectType {
	switch kind {
	case packCommit:
		return plumbing.CommitObject
	case packTree:
		return plumbing.TreeObject
	case packBlob:
		return plumbing.BlobObject
	case packTag:
		return plumbing.TagObject
	}
	return plumbing.InvalidObject
}

// verify checks that content of type t is object h.
func verify(t plumbing.ObjectType, data []byte, h plumbing.Hash) error {
	sum := sha1.New()
	sum.Write(objectHeader(t, len(data)))
	sum.Write(data)
	if !bytes.Equal(sum.Sum(nil), h[:]) {
		return errors.New("corrupt: content does not match the object id")
	}
	return nil
}

// objectHeader is what git hashes before an object's content.
func objectHeader(t plumbing.ObjectType, size int) []byte {
	return append(strconv.AppendInt(append([]byte(t.String()), ' '), int64(size), 10), 0)
}
