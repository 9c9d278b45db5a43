package gitread

import (
	"hash"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/pjbgf/sha1cd"
)

// BlobID is the id of data as a blob, for the prefix proof (see
// prefixHash).
func BlobID(data []byte) []byte {
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
