package gitread

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
)

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
