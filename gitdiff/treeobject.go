package gitdiff

import (
	"bytes"
	"fmt"
	"iter"
	"math"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// treeObject is a tree as its object holds it: the bytes the reader
// returned, checked once when read (see checkTree) and then walked in
// place, so that reading a tree allocates nothing per entry and comparing
// two trees allocates only for the entries that differ.
type treeObject struct {
	hash plumbing.Hash
	data []byte
}

// treeEntry is one entry of a tree: its name, which points into the tree's
// bytes (a path built from it is a copy), and its object and mode.
type treeEntry struct {
	name []byte
	entry
}

// isDir reports whether the entry is a subtree.
func (e treeEntry) isDir() bool { return e.mode == filemode.Dir }

// treeCursor walks the entries of a checked tree in order.
type treeCursor struct {
	rest []byte
}

// cursor starts a walk over t's entries; a nil t has none.
func (t *treeObject) cursor() treeCursor {
	if t == nil {
		return treeCursor{}
	}
	return treeCursor{rest: t.data}
}

// next returns the next entry, false after the last. The tree was checked
// when read: what decodeEntry accepted decodes again without error.
func (c *treeCursor) next() (treeEntry, bool) {
	if len(c.rest) == 0 {
		return treeEntry{}, false
	}
	e, rest, err := decodeEntry(c.rest)
	if err != nil {
		c.rest = nil
		return treeEntry{}, false
	}
	c.rest = rest
	return e, true
}

// all yields t's entries in order.
func (t *treeObject) all() iter.Seq[treeEntry] {
	return func(yield func(treeEntry) bool) {
		for c := t.cursor(); ; {
			e, ok := c.next()
			if !ok || !yield(e) {
				return
			}
		}
	}
}

// decodeEntry reads the first entry of a tree's bytes as go-git's
// object.Tree.Decode reads it, with its errors: an octal mode (digits only,
// at most 32 bits) ended by a space, a name of at least one byte ended by a
// NUL, and a 20-byte object id. The mode is made canonical as go-git makes
// it: any mode that is not a directory, a file or a symbolic link reads as
// a submodule.
func decodeEntry(data []byte) (treeEntry, []byte, error) {
	space := bytes.IndexByte(data, ' ')
	if space < 0 {
		return treeEntry{}, nil, fmt.Errorf("%w: missing mode terminator", object.ErrMalformedTree)
	}
	mode, ok := parseMode(data[:space])
	if !ok {
		return treeEntry{}, nil, fmt.Errorf("%w: malformed mode", object.ErrMalformedTree)
	}
	data = data[space+1:]
	nul := bytes.IndexByte(data, 0)
	switch {
	case nul < 0:
		return treeEntry{}, nil, fmt.Errorf("%w: missing filename terminator", object.ErrMalformedTree)
	case nul == 0:
		return treeEntry{}, nil, fmt.Errorf("%w: empty filename", object.ErrMalformedTree)
	case len(data) < nul+1+len(plumbing.Hash{}):
		return treeEntry{}, nil, fmt.Errorf("%w: truncated object id", object.ErrMalformedTree)
	}
	e := treeEntry{name: data[:nul:nul], entry: entry{mode: mode}}
	data = data[nul+1:]
	n := copy(e.hash[:], data)
	return e, data[n:], nil
}

// parseMode reads an octal mode as strconv.ParseUint(s, 8, 32) does, and
// makes it canonical as go-git does (see decodeEntry).
func parseMode(s []byte) (filemode.FileMode, bool) {
	if len(s) == 0 {
		return 0, false
	}
	var n uint64
	for _, c := range s {
		if c < '0' || c > '7' {
			return 0, false
		}
		if n = n*8 + uint64(c-'0'); n > math.MaxUint32 {
			return 0, false
		}
	}
	switch n & 0o170000 {
	case 0o040000:
		return filemode.Dir, true
	case 0o100000:
		if n&0o111 != 0 {
			return filemode.Executable, true
		}
		return filemode.Regular, true
	case 0o120000:
		return filemode.Symlink, true
	}
	return filemode.Submodule, true
}

// find returns the entry named name (found false when there is none). The
// tree is in git's order (checkTree): the walk stops past where a
// directory of that name would sort, which is after a file of that name.
func (t *treeObject) find(name string) (entry, bool) {
	key := []byte(name)
	for c := t.cursor(); ; {
		e, ok := c.next()
		if !ok || compareTreeNames(e.name, e.isDir(), key, true) > 0 {
			return entry{}, false
		}
		if bytes.Equal(e.name, key) {
			return e.entry, true
		}
	}
}
