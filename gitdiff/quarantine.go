package gitdiff

import (
	"errors"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
)

// quarantined returns the store of the objects a push brings, or nil
// outside a push. While git's receive-pack runs the pre-receive hook, the
// objects of the push wait in a quarantine directory of their own (git
// 2.11 and later, loose or as a pack alike) that the repository's object
// directory does not hold until the hook accepts the push. git names it in
// GIT_QUARANTINE_PATH and GIT_OBJECT_DIRECTORY; GitLab's Gitaly hands
// custom hooks GIT_OBJECT_DIRECTORY only. A relative path is relative to
// the git directory, where git runs the hook.
func quarantined(opts Options, gitDir string) *objectStore {
	dir := opts.getenv("GIT_QUARANTINE_PATH")
	if dir == "" {
		dir = opts.getenv("GIT_OBJECT_DIRECTORY")
	}
	if dir == "" {
		return nil
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(gitDir, dir)
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
