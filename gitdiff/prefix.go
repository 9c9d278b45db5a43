package gitdiff

import (
	"bytes"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gitread"
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
	size, ok := r.reader.BlobSize(old.hash)
	if !ok || size < minPrefixProof || size > int64(len(now.Data)) {
		return r.blob(old)
	}
	if prefixSum == nil {
		prefixSum = gitread.BlobID(now.Data[:size])
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
	size, ok := r.reader.BlobSize(old.hash)
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
