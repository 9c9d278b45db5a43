package gitdiff

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/klauspost/compress/flate"
)

// maxInflation bounds how much larger than its compressed form an object
// can be: deflate cannot expand data more than about 1032 times, so a
// header that declares more is a lie, and is refused before any memory is
// allocated for it.
const maxInflation = 1032

// readLoose reads a blob stored as a loose object, which is where the
// blobs a hook looks at usually are (git add writes them loose). ok is
// false when the object is not loose (it is then in a pack).
func (r *Repo) readLoose(h plumbing.Hash) (data []byte, ok bool, err error) {
	hex := h.String()
	path := filepath.Join(r.objectsDir(), hex[:2], hex[2:])
	compressed, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading object %s: %w", hex, err)
	}
	data, err = inflateBlob(compressed, h)
	if err != nil {
		return nil, true, fmt.Errorf("object %s: %w", hex, err)
	}
	return data, true, nil
}

// inflateBlob decodes a loose blob object and checks that its SHA-1 is h,
// as git does. It reads the object itself rather than with go-git, whose
// reader hashes with SHA-1 collision detection and through several
// buffers, which costs more than the rest of a staged check; here the
// deflate stream is inflated straight into a buffer of the declared size
// (klauspost's inflater, reading from memory, is about twice as fast as the
// standard one) and hashed once with the standard SHA-1. Every length is
// checked: a header that declares more than the compressed data can hold is
// refused before allocating, and trailing data is an error.
func inflateBlob(compressed []byte, h plumbing.Hash) ([]byte, error) {
	// A loose object is a two-byte zlib header, then deflate data. The
	// Adler-32 checksum is not read: the SHA-1 below covers the content.
	if len(compressed) < 2 || compressed[0]&0x0f != 8 || (uint16(compressed[0])<<8|uint16(compressed[1]))%31 != 0 {
		return nil, errors.New("corrupt: not a zlib stream")
	}
	z := flate.NewReader(bytes.NewReader(compressed[2:]))
	defer z.Close()
	zr := bufio.NewReaderSize(z, 64)
	slice, err := zr.ReadSlice(0)
	if err != nil {
		return nil, fmt.Errorf("corrupt header: %w", err)
	}
	header := append([]byte(nil), slice...) // the reader's buffer is reused
	kind, size, _ := bytes.Cut(header[:len(header)-1], []byte(" "))
	n, err := strconv.ParseInt(string(size), 10, 64)
	if string(kind) != "blob" || err != nil || n < 0 || string(size) != strconv.FormatInt(n, 10) {
		return nil, errors.New("not a well-formed blob")
	}
	if n > int64(len(compressed))*maxInflation {
		return nil, fmt.Errorf("corrupt: declares %d bytes, more than %d compressed bytes can hold", n, len(compressed))
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(zr, body); err != nil {
		return nil, fmt.Errorf("corrupt: %w", err)
	}
	if extra, _ := zr.Read(make([]byte, 1)); extra != 0 {
		return nil, errors.New("corrupt: more data than the header declares")
	}
	sum := sha1.New()
	sum.Write(header)
	sum.Write(body)
	if !bytes.Equal(sum.Sum(nil), h[:]) {
		return nil, errors.New("corrupt: content does not match the object id")
	}
	return body, nil
}

// objectsDir is where the repository keeps its objects (shared by linked
// worktrees).
func (r *Repo) objectsDir() string {
	if r.commonDir != "" {
		return filepath.Join(r.commonDir, "objects")
	}
	return filepath.Join(r.gitDir, "objects")
}
