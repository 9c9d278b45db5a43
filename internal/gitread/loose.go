package gitread

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"hash"
	"io"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/klauspost/compress/flate"
)

// maxInflation bounds how much larger than its compressed form an object
// can be: deflate cannot expand data more than about 1032 times, so a
// header that declares more is a lie, and is refused before any memory is
// allocated for it.
const maxInflation = 1032

// inflateObject decodes a loose object and checks that its SHA-1 is h. It
// reads the object itself rather than with go-git, whose reader hashes
// with SHA-1 collision detection and through several buffers, which costs
// more than the rest of a staged check; here the deflate stream is
// inflated straight into a buffer of the declared size (klauspost's
// inflater, reading from memory, is about twice as fast as the standard
// one) and hashed once with the standard SHA-1. Every length is checked: a
// header that declares more than the compressed data can hold is refused
// before allocating, and trailing data is an error.
func inflateObject(compressed []byte, h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	kind, body, _, err := new(inflaters).inflatePrefix(compressed, h, -1)
	return kind, body, err
}

// inflaters keeps deflate readers for reuse. Each holds a 32 KiB window:
// for a commit of many small objects, allocating (and collecting) one per
// object costs more than inflating the objects.
type inflaters struct{ pool sync.Pool }

// open returns a reader of the deflate stream data, reused when one is free.
func (p *inflaters) open(data []byte) io.ReadCloser {
	if fr, ok := p.pool.Get().(io.ReadCloser); ok {
		if fr.(flate.Resetter).Reset(bytes.NewReader(data), nil) == nil {
			return fr
		}
	}
	return flate.NewReader(bytes.NewReader(data))
}

// release hands back a reader open returned, for the next object.
func (p *inflaters) release(fr io.ReadCloser) { p.pool.Put(fr) }

// inflatePrefix is inflateObject that also returns the id the first
// prefix bytes of the content would have as a blob (nil when prefix < 0 or
// is beyond the content), hashed along with the rest.
func (p *inflaters) inflatePrefix(compressed []byte, h plumbing.Hash, prefix int64) (plumbing.ObjectType, []byte, []byte, error) {
	fr, zr, header, kind, n, err := p.openLoose(compressed, len(compressed))
	if err != nil {
		return plumbing.InvalidObject, nil, nil, err
	}
	defer p.release(fr)
	if prefix > n {
		prefix = -1
	}
	body := newBody(int(n))
	sum, prefixSum, err := inflateHashing(zr, header, body, int(prefix))
	if err != nil {
		return plumbing.InvalidObject, nil, nil, fmt.Errorf("corrupt: %w", err)
	}
	if extra, _ := zr.Read(make([]byte, 1)); extra != 0 {
		return plumbing.InvalidObject, nil, nil, errors.New("corrupt: more data than the header declares")
	}
	if !bytes.Equal(sum, h[:]) {
		return plumbing.InvalidObject, nil, nil, errors.New("corrupt: content does not match the object id")
	}
	return kind, body, prefixSum, nil
}

// Sizes of the hashing that goes along with inflating a large object.
const (
	// minHashAlong is the smallest object hashed while it is inflated
	// rather than after.
	minHashAlong = 1 << 20
	// hashAlongChunk is how much is inflated before it is handed to the
	// hashing.
	hashAlongChunk = 256 << 10
)

// inflateHashing fills body from zr and returns the SHA-1 of header and
// body and, when prefix >= 0, the id of body[:prefix] as a blob. A large
// body is hashed as it is inflated, chunk by chunk, by one goroutine per
// hash (the prefix's, with collision detection, costs twice the other):
// on two cores the inflating and hashing then overlap.
func inflateHashing(zr io.Reader, header, body []byte, prefix int) (sum, prefixSum []byte, err error) {
	whole := sha1.New()
	whole.Write(header)
	hashes := []hashing{{h: whole, upto: len(body)}}
	if prefix >= 0 {
		hashes = append(hashes, hashing{h: prefixHash(prefix), upto: prefix})
	}
	finish := func() ([]byte, []byte) {
		if len(hashes) == 1 {
			return whole.Sum(nil), nil
		}
		return whole.Sum(nil), prefixSumOf(hashes[1].h)
	}
	if len(body) < minHashAlong {
		if _, err := io.ReadFull(zr, body); err != nil {
			return nil, nil, err
		}
		for _, h := range hashes {
			h.h.Write(body[:h.upto])
		}
		sum, prefixSum = finish()
		return sum, prefixSum, nil
	}
	var wg sync.WaitGroup
	for i := range hashes {
		hashes[i].written = make(chan int, len(body)/hashAlongChunk+1)
		wg.Go(func() { hashes[i].along(body) })
	}
	for off := 0; off < len(body) && err == nil; off += hashAlongChunk {
		end := min(off+hashAlongChunk, len(body))
		if _, err = io.ReadFull(zr, body[off:end]); err == nil {
			for _, h := range hashes {
				h.written <- end
			}
		}
	}
	for _, h := range hashes {
		close(h.written)
	}
	wg.Wait()
	sum, prefixSum = finish()
	return sum, prefixSum, err
}

// hashing is one hash of a body being inflated: of its first upto bytes,
// fed from written with the end of what has been inflated so far.
type hashing struct {
	h       hash.Hash
	upto    int
	written chan int
}

// along hashes body as written says it fills, until written is closed.
func (h hashing) along(body []byte) {
	from := 0
	for end := range h.written {
		if end = min(end, h.upto); from < end {
			h.h.Write(body[from:end])
			from = end
		}
	}
}

// openLoose reads the header of a loose object ("<type> <size>\0") from
// the start of its compressed form (total bytes long in all) and returns
// the inflater, for release once read, a reader of the content, the header
// itself, and the type and size it declares.
func (p *inflaters) openLoose(compressed []byte, total int) (io.ReadCloser, *bufio.Reader, []byte, plumbing.ObjectType, int64, error) {
	// A loose object is a two-byte zlib header, then deflate data. The
	// Adler-32 checksum is not read: the SHA-1 covers the content.
	if len(compressed) < 2 || compressed[0]&0x0f != 8 || (uint16(compressed[0])<<8|uint16(compressed[1]))%31 != 0 {
		return nil, nil, nil, plumbing.InvalidObject, 0, errors.New("corrupt: not a zlib stream")
	}
	fr := p.open(compressed[2:])
	fail := func(err error) (io.ReadCloser, *bufio.Reader, []byte, plumbing.ObjectType, int64, error) {
		p.release(fr)
		return nil, nil, nil, plumbing.InvalidObject, 0, err
	}
	zr := bufio.NewReaderSize(fr, 64)
	slice, err := zr.ReadSlice(0)
	if err != nil {
		return fail(fmt.Errorf("corrupt header: %w", err))
	}
	header := append([]byte(nil), slice...) // the reader's buffer is reused
	name, size, _ := bytes.Cut(header[:len(header)-1], []byte(" "))
	kind, err := plumbing.ParseObjectType(string(name))
	n, perr := strconv.ParseInt(string(size), 10, 64)
	if err != nil || kind == plumbing.OFSDeltaObject || kind == plumbing.REFDeltaObject || perr != nil || n < 0 || string(size) != strconv.FormatInt(n, 10) {
		return fail(errors.New("not a well-formed object header"))
	}
	if n > int64(total)*maxInflation {
		return fail(fmt.Errorf("corrupt: declares %d bytes, more than %d compressed bytes can hold", n, total))
	}
	return fr, zr, header, kind, n, nil
}
