package gitdiff

import (
	"bytes"
	"fmt"
	"iter"
	"math"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/small-hook/small-hook/internal/affix"
)

// treeObject is a tree as its object holds it: the bytes the reader
// returned, checked once when read (see checkTree) and then walked in
// place, so that reading a tree allocates nothing per entry and comparing
// two trees allocates only for the entries that differ.
type treeObject struct {
	hash plumbing.Hash
	data []byte
	// starts holds the offset in data of each entry, in order (see
	// checkTree): a name is found by binary search, and two versions of a
	// tree are compared where their bytes differ (see unchangedEnds).
	starts []int
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

// between walks t's entries from the one at index i to the one before j.
func (t *treeObject) between(i, j int) treeCursor {
	return treeCursor{rest: t.data[t.offset(i):t.offset(j)]}
}

// offset is where t's entry at index i starts, the end of the data for
// the index past the last.
func (t *treeObject) offset(i int) int {
	if i == len(t.starts) {
		return len(t.data)
	}
	return t.starts[i]
}

// at returns t's entry at index i.
func (t *treeObject) at(i int) treeEntry {
	c := t.between(i, i+1)
	e, _ := c.next()
	return e
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
// at most 32 bits, as strconv.ParseUint(mode, 8, 32) reads it) ended by a
// space, a name of at least one byte ended by a NUL, and a 20-byte object
// id.
func decodeEntry(data []byte) (treeEntry, []byte, error) {
	var mode uint64
	valid, space := true, -1
	for i, c := range data {
		if c == ' ' {
			space = i
			break
		}
		if c < '0' || c > '7' {
			valid = false
		} else if mode = mode*8 + uint64(c-'0'); mode > math.MaxUint32 {
			valid = false
			mode = 0
		}
	}
	switch {
	case space < 0:
		return treeEntry{}, nil, fmt.Errorf("%w: missing mode terminator", object.ErrMalformedTree)
	case space == 0 || !valid:
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
	e := treeEntry{name: data[:nul:nul], entry: entry{mode: canonicalMode(mode)}}
	data = data[nul+1:]
	n := copy(e.hash[:], data)
	return e, data[n:], nil
}

// canonicalMode makes a mode canonical as go-git does: any mode that is not
// a directory, a file or a symbolic link reads as a submodule.
func canonicalMode(n uint64) filemode.FileMode {
	switch n & 0o170000 {
	case 0o040000:
		return filemode.Dir
	case 0o100000:
		if n&0o111 != 0 {
			return filemode.Executable
		}
		return filemode.Regular
	case 0o120000:
		return filemode.Symlink
	}
	return filemode.Submodule
}

// find returns the entry named name (found false when there is none). The
// tree is in git's order (checkTree): a file of that name is where the
// name sorts, a directory where the name followed by "/" sorts.
func (t *treeObject) find(name string) (entry, bool) {
	key := []byte(name)
	for _, dir := range []bool{false, true} {
		i := sort.Search(len(t.starts), func(i int) bool {
			e := t.at(i)
			return compareTreeNames(e.name, e.isDir(), key, dir) >= 0
		})
		if i == len(t.starts) {
			continue
		}
		if e := t.at(i); bytes.Equal(e.name, key) && e.isDir() == dir {
			return e.entry, true
		}
	}
	return entry{}, false
}

// unchangedEnds compares two checked trees by their bytes: the first head
// entries of a and of b are the same bytes, and so are a's entries from
// tailA on and b's from tailB on, to the end of each. Entries that are the
// same bytes are the same entries; what lies between is what a change
// touched. A name is listed once in a tree (checkTree), so no entry
// between can pair with one outside.
func unchangedEnds(a, b *treeObject) (head, tailA, tailB int) {
	shared := affix.CommonPrefix(a.data, b.data)
	// The entries that end within the shared bytes.
	head = sort.Search(min(len(a.starts), len(b.starts)), func(i int) bool { return a.offset(i+1) > shared })
	tailA, tailB = len(a.starts), len(b.starts)
	restA, restB := a.data[a.offset(head):], b.data[b.offset(head):]
	shift := len(b.data) - len(a.data)
	from := len(a.data) - affix.CommonSuffix(restA, restB)
	// The first entry of a that starts in the shared end and where an
	// entry of b starts too: from there on both read the same.
	i := sort.SearchInts(a.starts[head:], from) + head
	j := sort.SearchInts(b.starts[head:], from+shift) + head
	for i < len(a.starts) && j < len(b.starts) {
		switch at := a.starts[i] + shift; {
		case b.starts[j] < at:
			j++
		case b.starts[j] > at:
			i++
		default:
			return head, i, j
		}
	}
	return head, tailA, tailB
}
