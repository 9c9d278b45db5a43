package gitdiff

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/klauspost/compress/flate"
)

// readLoose reads a blob stored as a loose object, which is where the
// blobs a hook looks at usually are (git add writes them loose). It
// inflates the object directly: go-git would also recompute its SHA-1 with
// collision detection, which costs more than the rest of a staged check.
// ok is false when the object is not loose (it is then in a pack).
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
	// A loose object is a two-byte zlib header, then deflate data. Reading
	// the deflate stream directly skips the Adler-32 checksum, which costs
	// as much as inflating; the object's declared size is still checked.
	// klauspost's inflater, reading from memory, is about twice as fast as
	// the standard one.
	if len(compressed) < 2 {
		return nil, true, fmt.Errorf("object %s is corrupt: truncated", hex)
	}
	z := flate.NewReader(bytes.NewReader(compressed[2:]))
	defer z.Close()
	zr := bufio.NewReader(z)
	header, err := zr.ReadSlice(0)
	if err != nil {
		return nil, true, fmt.Errorf("object %s is corrupt: %w", hex, err)
	}
	kind, size, _ := bytes.Cut(header[:len(header)-1], []byte(" "))
	n, err := strconv.Atoi(string(size))
	if string(kind) != "blob" || err != nil || n < 0 {
		return nil, true, fmt.Errorf("object %s is not a well-formed blob", hex)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(zr, body); err != nil {
		return nil, true, fmt.Errorf("object %s is corrupt: %w", hex, err)
	}
	return body, true, nil
}

// objectsDir is where the repository keeps its objects (shared by linked
// worktrees).
func (r *Repo) objectsDir() string {
	if r.commonDir != "" {
		return filepath.Join(r.commonDir, "objects")
	}
	return filepath.Join(r.gitDir, "objects")
}
