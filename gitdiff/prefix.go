package gitdiff

import (
	"bytes"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gitread"
)

// minPrefixProof is the smallest old version worth proving a prefix of the
// new one: below it, inflating the old version costs less than hashing.
const minPrefixProof = 64 << 10

// readChange returns a copy of ch whose unread versions rd has read: the
// new version first, then every other one (the old version, a merge's
// parents and bases), taken from the new version's first bytes where they
// are its prefix (see proveOld), read otherwise. The new version is hashed
// along for the old one's proof while it is inflated (see oldSize).
func readChange(rd gitread.Reader, ch changes.Change) (changes.Change, error) {
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
func oldSize(rd gitread.Reader, old, now *changes.Blob) int64 {
	if old == nil || !old.Unread || old.Kind != changes.KindFile || now.Kind != changes.KindFile {
		return -1
	}
	size, ok := rd.BlobSize(plumbing.NewHash(old.Hash))
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
func proveOld(rd gitread.Reader, old, now *changes.Blob, size int64, sum []byte) (*changes.Blob, error) {
	h := plumbing.NewHash(old.Hash)
	if size < 0 && old.Kind == changes.KindFile && now != nil && now.Kind == changes.KindFile {
		if n, ok := rd.BlobSize(h); ok && n >= minPrefixProof {
			size = n
		}
	}
	if size >= 0 && now != nil && size <= int64(len(now.Data)) {
		if sum == nil {
			sum = gitread.BlobID(now.Data[:size])
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
