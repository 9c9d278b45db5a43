package gitread

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/klauspost/compress/flate"
)

// pack is one pack file and its index.
type pack struct {
	idx  *packIndex
	path string
	// data is the pack file, mapped on first use.
	data    []byte
	release func() error
}

// Pack entry types (git's pack-format).
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

// maxDeltaChain bounds how many deltas an object may be built from; git
// writes chains of at most 4095 (pack.depth).
const maxDeltaChain = 10_000

// packHeaderSize is the pack's signature, version and object count.
const packHeaderSize = 12

// entry reads the pack entry at off: its type, and its content inflated
// (for a delta, the delta itself) with the base it applies to.
type packEntry struct {
	kind int
	data []byte
	// baseOffset (OFS_DELTA) or baseID (REF_DELTA) name the base.
	baseOffset uint64
	baseID     plumbing.Hash
}

// packReading is what reading pack entries reuses: a reader of the
// mapped pack and an inflater, reset for each entry.
type packReading struct {
	buf      bytes.Reader
	inflater io.ReadCloser
}

// readEntry reads the entry at off of p.
func (s *objectStore) readEntry(p *pack, off uint64) (*packEntry, error) {
	e, size, err := s.entryHeader(p, off)
	if err != nil {
		return nil, err
	}
	if e.data, err = s.inflate(size); err != nil {
		return nil, fmt.Errorf("entry at %d: %w", off, err)
	}
	return e, nil
}

// entryHeader reads the header of the entry at off of p: its type, the
// size of its inflated data and its base, and leaves the reader at its
// compressed data.
func (s *objectStore) entryHeader(p *pack, off uint64) (*packEntry, uint64, error) {
	if err := p.open(); err != nil {
		return nil, 0, err
	}
	end := uint64(len(p.data) - hashLen) // the pack's checksum follows the last entry
	if off < packHeaderSize || off >= end {
		return nil, 0, fmt.Errorf("offset %d is outside the pack", off)
	}
	rd := &s.reading
	rd.buf.Reset(p.data[off:end])
	c, err := rd.buf.ReadByte()
	if err != nil {
		return nil, 0, fmt.Errorf("entry at %d: %w", off, err)
	}
	e := &packEntry{kind: int(c>>4) & 7}
	size := uint64(c & 0x0f)
	for shift := uint(4); c&0x80 != 0; shift += 7 {
		if shift > 60 {
			return nil, 0, fmt.Errorf("entry at %d: size too large", off)
		}
		if c, err = rd.buf.ReadByte(); err != nil {
			return nil, 0, fmt.Errorf("entry at %d: %w", off, err)
		}
		size |= uint64(c&0x7f) << shift
	}
	switch e.kind {
	case packCommit, packTree, packBlob, packTag:
	case packOfsDelta:
		back, err := readOffset(&rd.buf)
		if err != nil || back == 0 || back > off-packHeaderSize {
			return nil, 0, fmt.Errorf("entry at %d: bad delta base offset", off)
		}
		e.baseOffset = off - back
	case packRefDelta:
		if _, err := io.ReadFull(&rd.buf, e.baseID[:]); err != nil {
			return nil, 0, fmt.Errorf("entry at %d: %w", off, err)
		}
	default:
		return nil, 0, fmt.Errorf("entry at %d: unknown type %d", off, e.kind)
	}
	if size > (end-off)*maxInflation {
		return nil, 0, fmt.Errorf("entry at %d: declares %d bytes, more than the pack can hold", off, size)
	}
	return e, size, nil
}

// readOffset decodes the negative offset of an OFS_DELTA base.
func readOffset(r io.ByteReader) (uint64, error) {
	c, err := r.ReadByte()
	if err != nil {
		return 0, err
	}
	off := uint64(c & 0x7f)
	for c&0x80 != 0 {
		if off >= 1<<56 {
			return 0, errors.New("offset too large")
		}
		if c, err = r.ReadByte(); err != nil {
			return 0, err
		}
		off = (off+1)<<7 | uint64(c&0x7f)
	}
	return off, nil
}

// inflate reads a zlib stream of exactly size bytes from the reader.
func (s *objectStore) inflate(size uint64) ([]byte, error) {
	rd := &s.reading
	if err := s.startInflating(); err != nil {
		return nil, err
	}
	out := newBody(int(size))
	if _, err := io.ReadFull(rd.inflater, out); err != nil {
		return nil, fmt.Errorf("corrupt: %w", err)
	}
	var one [1]byte
	if n, _ := rd.inflater.Read(one[:]); n != 0 {
		return nil, errors.New("corrupt: more data than the header declares")
	}
	return out, nil
}

// inflatePrefix reads the first n bytes of the zlib stream at the reader.
func (s *objectStore) inflatePrefix(n uint64) ([]byte, error) {
	if err := s.startInflating(); err != nil {
		return nil, err
	}
	out := newBody(int(n))
	if _, err := io.ReadFull(s.reading.inflater, out); err != nil {
		return nil, fmt.Errorf("corrupt: %w", err)
	}
	return out, nil
}

// startInflating checks the zlib header at the reader and sets the
// inflater to read the deflate stream after it.
func (s *objectStore) startInflating() error {
	rd := &s.reading
	var header [2]byte
	if _, err := io.ReadFull(&rd.buf, header[:]); err != nil {
		return err
	}
	if header[0]&0x0f != 8 || (uint16(header[0])<<8|uint16(header[1]))%31 != 0 || header[1]&0x20 != 0 {
		return errors.New("corrupt: not a zlib stream")
	}
	if rd.inflater == nil {
		rd.inflater = flate.NewReader(&rd.buf)
		return nil
	}
	return rd.inflater.(flate.Resetter).Reset(&rd.buf, nil)
}

// open maps the pack file, checking its header.
func (p *pack) open() error {
	if p.data != nil {
		return nil
	}
	data, release, err := mapFile(p.path)
	if err != nil {
		return fmt.Errorf("reading %s: %w", p.path, err)
	}
	if len(data) < packHeaderSize+hashLen || string(data[:4]) != "PACK" {
		release()
		return fmt.Errorf("%s is not a pack", p.path)
	}
	p.data, p.release = data, release
	return nil
}

// close unmaps the pack file.
func (p *pack) close() error {
	if p.release == nil {
		return nil
	}
	err := p.release()
	p.data, p.release = nil, nil
	return err
}

// resolve returns the type and content of the object at off of p,
// applying the deltas it is stored as. What a chain of deltas produces is
// kept in a cache: the objects of one directory or of one file's history
// are deltas of each other, and the next object read is often built on
// the same bases.
func (s *objectStore) resolve(p *pack, off uint64) (int, []byte, error) {
	type link struct {
		entry *packEntry
		pack  *pack
		off   uint64
	}
	var chain []link
	kind, data := 0, []byte(nil)
	for in, at := p, off; ; {
		if k, d, ok := s.bases.get(in, at); ok {
			kind, data = k, d
			break
		}
		if len(chain) >= maxDeltaChain {
			return 0, nil, fmt.Errorf("delta chain longer than %d", maxDeltaChain)
		}
		e, err := s.readEntry(in, at)
		if err != nil {
			return 0, nil, err
		}
		if e.kind != packOfsDelta && e.kind != packRefDelta {
			kind, data = e.kind, e.data
			if len(chain) > 0 {
				s.bases.put(in, at, kind, data)
			}
			break
		}
		chain = append(chain, link{e, in, at})
		if e.kind == packOfsDelta {
			at = e.baseOffset
			continue
		}
		var found bool
		if in, at, found, err = s.locate(e.baseID); err != nil {
			return 0, nil, err
		}
		if !found {
			return 0, nil, fmt.Errorf("delta base %s is missing", e.baseID)
		}
	}
	for i := len(chain) - 1; i >= 0; i-- {
		var err error
		if data, err = applyDelta(data, chain[i].entry.data); err != nil {
			return 0, nil, fmt.Errorf("entry at %d: %w", chain[i].off, err)
		}
		s.bases.put(chain[i].pack, chain[i].off, kind, data)
	}
	return kind, data, nil
}
