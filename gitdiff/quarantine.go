package gitdiff

import (
	"errors"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
)

// quarantined returns the store of the objects a push brings, or nil
// outside a push. While git's receive-pack runs the pre-receive hook, the
// objects of the push wait in a quarantine directory of their own
// (GIT_QUARANTINE_PATH; git 2.11 and later, loose or as a pack alike), and
// the repository's object directory does not hold them until the hook
// accepts the push.
func quarantined(opts Options) *objectStore {
	dir := opts.getenv("GIT_QUARANTINE_PATH")
	if dir == "" || !filepath.IsAbs(dir) {
		return nil
	}
	return newObjectStore(dir)
}

// readIncoming reads h from the quarantine when the repository's own store
// did not find it (err is what that read returned).
func (s *objectStore) readIncoming(h plumbing.Hash, prefix int64, kind plumbing.ObjectType, data, sum []byte, err error) (plumbing.ObjectType, []byte, []byte, error) {
	if s.incoming == nil || !errors.Is(err, plumbing.ErrObjectNotFound) {
		return kind, data, sum, err
	}
	return s.incoming.readHashingPrefix(h, prefix)
}
