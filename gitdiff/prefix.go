package gitdiff

import (
	"bytes"
	"errors"
	"hash"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/pjbgf/sha1cd"

	"github.com/small-hook/small-hook/internal/changes"
)

// minPrefixProof is the smallest old version worth proving a prefix of the
// new one: below it, inflating the old version costs less than hashing.
const minPrefixProof = 64 << 10

// readChange returns a copy of ch whose unread versions rd has read: the
// new version first, then every other one (the old version, a merge's
// parents and bases), taken from the new version's first bytes where they
// are its prefix (see proveOld), read otherwise. The new version is hashed
// along for the old one's proof while it is inflated (see oldSize).
func readChange(rd reader, ch changes.Change) (changes.Change, error) {
	var now *changes.Blob
	var nowSum []byte
	size := int64(-1)
	return ch.MapVersions(func(b *changes.Blob) (*changes.Blob, error) {
		switch {
		case b == ch.New:
			now = b
			if b.Unread {
				size = oldSize(rd, ch.Old, b)
				prefix := size
				if b.Kind != changes.KindFile {
					prefix = -1
				}
				data, sum, err := readBlob(rd, plumbing.NewHash(b.Hash), prefix)
				if err != nil {
					return nil, err
				}
				now, nowSum = &changes.Blob{Hash: b.Hash, Kind: b.Kind, Data: data}, sum
			}
			return now, nil
		case !b.Unread:
			return b, nil
		case b == ch.Old:
			return proveOld(rd, b, now, size, nowSum)
		}
		return proveOld(rd, b, now, -1, nil)
	})
}

// oldSize returns the size of an old version of a changed file that the
// new one may start with (both unread regular files, the old one large
// enough to be worth a proof), for the new one's reading to hash that
// much of it along; -1 otherwise.
func oldSize(rd reader, old, now *changes.Blob) int64 {
	if old == nil || !old.Unread || old.Kind != changes.KindFile || now.Kind != changes.KindFile {
		return -1
	}
	size, ok := rd.blobSize(plumbing.NewHash(old.Hash))
	if !ok || size < minPrefixProof {
		return -1
	}
	return size
}

// proveOld reads an old version of a changed file (now is the new one,
// read already). When that version is large, it is first looked for at
// the start of the new version: git's id of a blob is the SHA-1 of "blob
// <size>\0" and its content, so when the SHA-1 of that header and the new
// version's first <size> bytes is the old id, those bytes are the old
// version, and it need not be inflated. The size comes from the old
// object's header alone. This is what makes an append to a large progress
// file cost about one reading of it rather than two; anything else reads
// the old version. size and sum, when size >= 0, are the old version's
// size and that SHA-1, computed while the new version was inflated (sum
// nil when it was not: see oldSize).
func proveOld(rd reader, old, now *changes.Blob, size int64, sum []byte) (*changes.Blob, error) {
	h := plumbing.NewHash(old.Hash)
	if size < 0 && old.Kind == changes.KindFile && now != nil && now.Kind == changes.KindFile {
		if n, ok := rd.blobSize(h); ok && n >= minPrefixProof {
			size = n
		}
	}
	if size >= 0 && now != nil && size <= int64(len(now.Data)) {
		if sum == nil {
			sum = blobID(now.Data[:size])
		}
		if sum != nil && bytes.Equal(sum, h[:]) {
			return &changes.Blob{Hash: old.Hash, Kind: changes.KindFile, Data: now.Data[:size:size]}, nil
		}
	}
	data, _, err := readBlob(rd, h, -1)
	if err != nil {
		return nil, err
	}
	return &changes.Blob{Hash: old.Hash, Kind: old.Kind, Data: data}, nil
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
