package gitdiff

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"
)

// readLoose reads a blob stored as a loose object, which is where the
// blobs a hook looks at usually are (git add writes them loose). It
// inflates the object directly: go-git would also recompute its SHA-1 with
// collision detection, which costs more than the rest of a staged check.
// ok is false when the object is not loose (it is then in a pack).
func (r *Repo) readLoose(h plumbing.Hash) (data []byte, ok bool, err error) {
	hex := h.String()
	path := filepath.Join(r.objectsDir(), hex[:2], hex[2:])
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("reading object %s: %w", hex, err)
	}
	defer f.Close()
	z, err := zlib.NewReader(f)
	if err != nil {
		return nil, true, fmt.Errorf("object %s is corrupt: %w", hex, err)
	}
	defer z.Close()
	raw, err := io.ReadAll(z)
	if err != nil {
		return nil, true, fmt.Errorf("object %s is corrupt: %w", hex, err)
	}
	header, body, found := bytes.Cut(raw, []byte{0})
	kind, size, _ := bytes.Cut(header, []byte(" "))
	n, convErr := strconv.Atoi(string(size))
	if !found || string(kind) != "blob" || convErr != nil || n != len(body) {
		return nil, true, fmt.Errorf("object %s is not a well-formed blob", hex)
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
