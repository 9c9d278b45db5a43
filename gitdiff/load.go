package gitdiff

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gitread"
)

// minPrefetch is the fewest versions a diff leaves unread: below it, the
// diff reads them itself, one after the other (see readFew); from it on,
// the unit's slices read them on every core (see loader).
const minPrefetch = 256

// heldBytes is about how many bytes of versions a diff reads and holds
// itself, besides the first change's: a unit of a few large files leaves
// the rest to its slices too.
const heldBytes = 8 << 20

// readFew reads the versions of chs, in order, when there are fewer than
// minPrefetch to read, until they hold heldBytes, and keeps them for the
// run (a range's next commit compares with them: see keepBlobs); the
// others stay unread, for the unit's slices to read (see loader). A
// commit's few changes are so read on the goroutine that builds its unit,
// while the one before is checked.
func (r *Repo) readFew(chs []changes.Change) error {
	unread := 0
	for i := range chs {
		chs[i].MapVersions(func(b *changes.Blob) (*changes.Blob, error) {
			if b.Unread {
				unread++
			}
			return b, nil
		})
	}
	if unread == 0 || unread >= minPrefetch {
		return nil
	}
	held := 0
	for i := range chs {
		if held >= heldBytes {
			break
		}
		read, err := readChange(r.reader, chs[i])
		if err != nil {
			return r.explain(err)
		}
		read.MapVersions(func(b *changes.Blob) (*changes.Blob, error) {
			if b.Kind != changes.KindSubmodule {
				r.blobs[keyOfBlob(b)] = b
			}
			return b, nil
		})
		chs[i] = read
		held += read.Bytes()
	}
	return nil
}

// loader reads the versions a unit leaves unread (changes.Loader), for the
// goroutine that checks the unit: repo is that goroutine's Repo, and the
// loader reads on its reader and, on other cores, on twins of it opened on
// first need and kept until the Repo closes. Nothing it reads is kept.
type loader struct {
	repo  *Repo
	twins []gitread.Reader
}

// loader returns r's loader.
func (r *Repo) loader() *loader {
	if r.load == nil {
		r.load = &loader{repo: r}
	}
	return r.load
}

// Read reads the first changes of chs, at least one, until they hold limit
// bytes of versions, one change after another on each reader, the readers
// taking the changes in order: what is read beyond limit is at most one
// change per reader. A change that cannot be read is an error (the first
// one in order, as reading them one after the other would give), and so
// is nothing else.
func (l *loader) Read(chs []*changes.Change, limit int) ([]changes.Change, error) {
	readers := l.readers(min(runtime.GOMAXPROCS(0), len(chs)))
	type done struct {
		i   int
		ch  changes.Change
		err error
	}
	results := make([][]done, len(readers))
	var next, held atomic.Int64
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w, rd := range readers {
		wg.Go(func() {
			for !stop.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(chs) {
					return
				}
				read, err := readChange(rd, *chs[i])
				results[w] = append(results[w], done{i, read, err})
				if err != nil || held.Add(int64(read.Bytes())) >= int64(limit) {
					stop.Store(true)
				}
			}
		})
	}
	wg.Wait()
	out := make([]changes.Change, min(int(next.Load()), len(chs)))
	failed := len(out)
	var err error
	for _, list := range results {
		for _, d := range list {
			out[d.i] = d.ch
			if d.err != nil && d.i < failed {
				failed, err = d.i, d.err
			}
		}
	}
	if err != nil {
		return nil, l.repo.explain(err)
	}
	return out, nil
}

// readers returns n readers: the repository's own, and twins of it.
func (l *loader) readers(n int) []gitread.Reader {
	for len(l.twins) < n-1 {
		l.twins = append(l.twins, l.repo.reader.Twin())
	}
	return append([]gitread.Reader{l.repo.reader}, l.twins[:max(n-1, 0)]...)
}

// close closes the twins.
func (l *loader) close() error {
	var errs []error
	for _, rd := range l.twins {
		errs = append(errs, rd.Close())
	}
	l.twins = nil
	return errors.Join(errs...)
}
