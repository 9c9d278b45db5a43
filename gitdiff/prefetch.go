package gitdiff

import (
	"errors"
	"runtime"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/small-hook/small-hook/internal/changes"
)

// minPrefetch is the fewest new versions a diff reads on several
// goroutines: below it, starting readers costs more than it saves.
const minPrefetch = 256

// prefetch reads the new versions of a diff into the blob cache, spread
// over one reader per processor: a commit that adds thousands of files
// would otherwise read (and inflate, and hash) them one after the other.
// A version that a prefix proof may need (see mayProvePrefix; telling
// for sure would read the old version's header twice) is left to diff,
// which reads it with the proof; so is anything prefetch fails to read, so
// that the error is diff's, as without it.
func (r *Repo) prefetch(old, new entries, paths []string) error {
	var todo []entry
	seen := map[string]bool{}
	for _, path := range paths {
		n, hasNew := new[path]
		o, hadOld := old[path]
		if !hasNew || (hadOld && o == n) || (hadOld && r.mayProvePrefix(o, n)) {
			continue
		}
		key := blobKey(n)
		if _, cached := r.blobs[key]; cached || seen[key] || n.mode == filemode.Submodule {
			continue
		}
		seen[key] = true
		todo = append(todo, n)
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo)/minPrefetch)
	if workers < 2 {
		return nil
	}
	read := make([]*changes.Blob, len(todo))
	var wg sync.WaitGroup
	var closeErrs []error
	var mu sync.Mutex
	for w := range workers {
		rd := r.reader.Twin()
		wg.Go(func() {
			for i := w; i < len(todo); i += workers {
				e := todo[i]
				kind, data, _, err := rd.Object(e.hash, -1)
				if err != nil || kind != plumbing.BlobObject {
					continue
				}
				b, _ := versionOf(e)
				b.Data = data
				read[i] = b
			}
			if err := rd.Close(); err != nil {
				mu.Lock()
				closeErrs = append(closeErrs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for i, b := range read {
		if b != nil {
			r.blobs[blobKey(todo[i])] = b
		}
	}
	return errors.Join(closeErrs...)
}
