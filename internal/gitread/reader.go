package gitread

import (
	"github.com/go-git/go-git/v5/plumbing"
)

// Reader names, as Repo.Reader and the JSON report give them.
const (
	// ReaderFast is small-hook's own readers of objects, packs, the index
	// and refs, taken when the probe at Open proves that they see what git
	// sees.
	ReaderFast = "fast"
	// ReaderGit is git itself: `git cat-file --batch-command`, `git
	// ls-files` and `git rev-parse`.
	ReaderGit = "git"
)

// Reader is everything a check reads of a repository that has more than one
// source: objects, HEAD and the index. One reader serves a whole run (see
// probe). Revisions a user names, git's configuration and the hooks
// directory always come from git (resolve, Config, HooksDir); commit
// parents and trees are decoded from the objects the reader returns.
type Reader interface {
	// Name is ReaderFast or ReaderGit.
	Name() string
	// Object returns the type and content of object h, or an error
	// wrapping plumbing.ErrObjectNotFound when the repository does not
	// have it. With prefix >= 0 a reader may also return the id that the
	// first prefix bytes of the content would have as a blob, hashed along
	// (nil when it does not; see gitdiff's proveOld).
	Object(h plumbing.Hash, prefix int64) (plumbing.ObjectType, []byte, []byte, error)
	// BlobSize returns the size object h declares without reading its
	// content, when the reader can tell it cheaply.
	BlobSize(h plumbing.Hash) (int64, bool)
	// Head returns the commit HEAD names and the branch it points to ("" when
	// detached); a zero id with a branch is an unborn branch.
	Head() (plumbing.Hash, string, error)
	// Index returns the entries of the index in scope and its cache tree,
	// checked against the entries (see verifyCacheTree).
	Index(scope Scope) (*IndexFile, error)
	// Twin returns a reader of the same repository that shares no state
	// with this one, for another goroutine.
	Twin() Reader
	// Close releases what the reader holds (mapped files, processes).
	Close() error
}
