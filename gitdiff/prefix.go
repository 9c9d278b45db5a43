package gitdiff

import (
	"bytes"
	"errors"
	"hash"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/pjbgf/sha1cd"

	"github.com/small-hook/small-hook/internal/changes"
)

// minPrefixProof is the smallest old version worth proving a prefix of the
// new one: below it, inflating the old version costs less than hashing.
const minPrefixProof = 64 << 10

// oldBlob reads the old version of a changed file. When that version is
// large, it is first looked for at the start of the new version, read
// already: git's id of a blob is the SHA-1 of "blob <size>\0" and its
// content, so when the SHA-1 of that header and the new version's first
// <size> bytes is the old id, those bytes are the old version, and it need
// not be inflated. The size comes from the old object's header alone.
// This is what makes an append to a large progress file cost about one
// reading of it rather than two; anything else reads the old version.
// prefixSum, when not nil, is that SHA-1 for the old version's size,
// computed while the new version was inflated (see prefixCandidate).
func (r *Repo) oldBlob(old entry, now *changes.Blob, prefixSum []byte) (*changes.Blob, error) {
	key := blobKey(old)
	if b, ok := r.blobs[key]; ok {
		return b, nil
	}
	if !regular(old) || now == nil || now.Kind != changes.KindFile {
		return r.blob(old)
	}
	size, ok := r.reader.blobSize(old.hash)
	if !ok || size < minPrefixProof || size > int64(len(now.Data)) {
		return r.blob(old)
	}
	if prefixSum == nil {
		prefixSum = blobID(now.Data[:size])
	}
	if prefixSum == nil || !bytes.Equal(prefixSum, old.hash[:]) {
		return r.blob(old)
	}
	b := &changes.Blob{Hash: old.hash.String(), Kind: changes.KindFile, Data: now.Data[:size:size]}
	r.blobs[key] = b
	return b, nil
}

// prefixCandidate returns the size of the old version of a changed file
// when the new one may start with it (see oldBlob), for the new one's
// reading to hash that much of it along; -1 otherwise.
func (r *Repo) prefixCandidate(old, now entry) int64 {
	if !r.mayProvePrefix(old, now) {
		return -1
	}
	size, ok := r.reader.blobSize(old.hash)
	if !ok || size < minPrefixProof {
		return -1
	}
	return size
}

// mayProvePrefix reports, without reading anything, whether a change from
// old to now may need a prefix proof: both are regular files and the old
// version is not read yet.
func (r *Repo) mayProvePrefix(old, now entry) bool {
	_, read := r.blobs[blobKey(old)]
	return !read && regular(old) && regular(now)
}

func regular(e entry) bool {
	return e.mode == filemode.Regular || e.mode == filemode.Executable
}

// blobID is the id of data as a blob, for the prefix proof (see
// prefixHash).
func blobID(data []byte) []byte {
	h := prefixHash(len(data))
	h.Write(data)
	return prefixSumOf(h)
}

// prefixHash starts the id of a blob of size bytes for the prefix proof.
// The proof takes a hash for the content it stands for, so the hash is
// SHA-1 with collision detection, as git's own (sha1dc): bytes crafted to
// collide with the old version (a chosen-prefix collision) would otherwise
// pass for it while git reads something else.
func prefixHash(size int) hash.Hash {
	h := sha1cd.New()
	h.Write(objectHeader(plumbing.BlobObject, size))
	return h
}

// prefixSumOf returns the id hashed by h (from prefixHash), or nil when the
// hashed bytes show the marks of a collision attack: then the old version
// is read instead.
func prefixSumOf(h hash.Hash) []byte {
	sum, collision := h.(sha1cd.CollisionResistantHash).CollisionResistantSum(nil)
	if collision {
		return nil
	}
	return sum
}

// blobSize returns the size an object declares without inflating its
// content: from a loose object's header, or from a pack entry's header
// (for a delta, from the start of the delta). ok is false when it cannot
// tell; nothing here is trusted, the caller proves what it uses.
func (s *objectStore) blobSize(h plumbing.Hash) (int64, bool) {
	if !s.packsLoaded {
		if size, err := s.looseSize(h); err == nil {
			return size, true
		}
		if err := s.loadPacks(); err != nil {
			return 0, false
		}
	}
	p, off, found, err := s.locate(h)
	if err != nil {
		return 0, false
	}
	if !found {
		size, err := s.looseSize(h)
		return size, err == nil
	}
	e, size, err := s.entryHeader(p, off)
	if err != nil {
		return 0, false
	}
	if e.kind != packOfsDelta && e.kind != packRefDelta {
		return int64(size), size <= 1<<62
	}
	// A delta starts with the sizes of its base and of its result.
	start, err := s.inflatePrefix(min(size, 2*10))
	if err != nil {
		return 0, false
	}
	_, n := deltaSize(start)
	if n == 0 {
		return 0, false
	}
	result, m := deltaSize(start[n:])
	return int64(result), m > 0 && result <= 1<<62
}

// looseSize reads the size in a loose object's header.
func (s *objectStore) looseSize(h plumbing.Hash) (int64, error) {
	hex := h.String()
	f, err := os.Open(filepath.Join(s.dir, hex[:2], hex[2:]))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	// The header is within the first bytes of the stream: "blob " and
	// at most 20 digits, deflated, after the two bytes of zlib.
	start := make([]byte, 512)
	n, err := io.ReadFull(f, start)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return 0, err
	}
	fr, _, _, _, size, err := s.inflaters.openLoose(start[:n], int(info.Size()))
	if err == nil {
		s.inflaters.release(fr)
	}
	return size, err
}
