package gitdiff

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/workspace"
)

// indexEntry is one entry of the git index that a check is interested in.
type indexEntry struct {
	path  string
	hash  plumbing.Hash
	mode  uint32
	stage int
}

// indexFile is what a check reads of the index file: the entries in scope and
// the cache tree.
type indexFile struct {
	entries []indexEntry
	// tree is the cache-tree extension (nil when the index has none): the
	// tree object ids of directories whose entries are unchanged since the
	// last tree was written from the index.
	tree *cacheTree
}

// index mode bits and entry flags.
const (
	modeTypeMask = 0o170000
	modeDir      = 0o040000

	flagExtended    = 0x4000
	flagIntentToAdd = 0x2000 // in the extended flags
	entryFixedSize  = 62
	// entryMinSize is the fewest bytes an entry takes in any version:
	// the fixed part and a path, padded (v2, v3) or NUL-terminated after
	// a varint (v4).
	entryMinSize = 64
	hashLen      = 20
)

// readIndex reads the entries of the index whose paths are in scope, and
// its cache tree. The file is mapped once per run, and decoded once for
// the paths that may be governed and the files at the root (the
// configuration), which serves every scope but All and the scopes whose
// Only or Policy paths name other paths.
func (r *Repo) readIndex(scope Scope) (*indexFile, error) {
	path := r.indexPath()
	if !r.indexRead {
		data, release, err := mapFile(path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("reading the index: %w", err)
		}
		if release != nil {
			r.releases = append(r.releases, release)
		}
		r.index, r.indexRead = data, true
		if data != nil {
			r.indexChecked = verifyingChecksum(data)
		}
	}
	if r.index == nil {
		return &indexFile{}, nil
	}
	parse := func(keep func([]byte) bool, byDirectory bool) (*indexFile, error) {
		idx, err := parseIndexWith(r.index, keep, byDirectory)
		// A wrong checksum explains a decoding error better than the
		// error does.
		if sumErr := r.indexChecked(); sumErr != nil {
			err = sumErr
		}
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", path, err)
		}
		return idx, nil
	}
	switch {
	case scope.All:
		if r.indexAll == nil {
			idx, err := parse(scope.contains, false)
			if err != nil {
				return nil, err
			}
			r.indexAll = idx
		}
		return r.indexAll, nil
	case scope.Only != nil && slices.ContainsFunc(scope.Only, outOfCommonScope),
		slices.ContainsFunc(scope.Policy, outOfCommonScope):
		return parse(scope.contains, false)
	}
	if r.indexCommon == nil {
		idx, err := parse(inCommonScope[[]byte], true)
		if err != nil {
			return nil, err
		}
		r.indexCommon = idx
	}
	return r.indexCommon.within(scope), nil
}

// verifyingChecksum starts verifying the trailing SHA-1 checksum of the
// index data on another goroutine (on two cores it costs no time next to
// decoding) and returns a function that waits for the verdict. git writes
// zeros for the checksum with index.skipHash; they are accepted.
func verifyingChecksum(data []byte) func() error {
	done := make(chan error, 1)
	go func() { done <- checkIndexSum(data) }()
	return sync.OnceValue(func() error { return <-done })
}

// checkIndexSum verifies the trailing SHA-1 checksum of index data.
func checkIndexSum(data []byte) error {
	if len(data) < 12+hashLen {
		return nil // too short to hold one: the decoder says so
	}
	end := len(data) - hashLen
	sum := data[end:]
	if bytes.Equal(sum, make([]byte, hashLen)) {
		return nil
	}
	if got := sha1.Sum(data[:end]); !bytes.Equal(got[:], sum) {
		return errors.New("checksum mismatch: the index file is corrupt (run `git read-tree HEAD` or `git reset` to rebuild it)")
	}
	return nil
}

// inCommonScope reports whether the decoding of the index that serves
// most scopes keeps a path: one that may be governed, or a file at the
// root. Its answer depends only on the path's directory.
func inCommonScope[T string | []byte](path T) bool {
	for i := 0; i < len(path); i++ {
		if path[i] == '/' {
			return workspace.Candidate(path)
		}
	}
	return true
}

// outOfCommonScope is the negation of inCommonScope.
func outOfCommonScope(path string) bool { return !inCommonScope(path) }

// within returns the entries of idx in scope.
func (idx *indexFile) within(scope Scope) *indexFile {
	out := &indexFile{tree: idx.tree}
	for _, e := range idx.entries {
		if scope.containsPath(e.path) {
			out.entries = append(out.entries, e)
		}
	}
	return out
}

// parseIndex decodes the entries of the index in scope.
func parseIndex(data []byte, scope Scope) (*indexFile, error) {
	return parseIndexWith(data, scope.contains, false)
}

// parseIndexWith decodes the index format (versions 2, 3 and 4) itself
// rather than with go-git, keeping the entries whose paths keep accepts
// (byDirectory: keep's answer depends only on the path's directory, so it
// is asked once for each run of entries in the same directory):
// go-git's decoder reads every entry of a large repository's index into
// structures through reflection (about 80 ms for 50,000 entries), which a
// hook would pay on every commit for the few entries it looks at. Every
// length is checked against the data, so a corrupt or crafted index is an
// error, never a panic or a silent misreading. The trailing checksum is
// verified by Repo.readIndex, alongside this decoding (see
// verifyingChecksum), so that a fuzzer reaches the decoder with any bytes.
func parseIndexWith(data []byte, keep func([]byte) bool, byDirectory bool) (*indexFile, error) {
	if len(data) < 12+hashLen || string(data[:4]) != "DIRC" {
		return nil, errors.New("not a git index file")
	}
	end := len(data) - hashLen
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("index version %d is not supported", version)
	}
	count := binary.BigEndian.Uint32(data[8:12])
	if uint64(count) > uint64(end)/entryMinSize {
		return nil, fmt.Errorf("index claims %d entries, more than its size allows", count)
	}
	out := &indexFile{}
	var name []byte
	// dir is the directory (with its "/") of the last path keep was
	// asked about, and kept its answer.
	var dir []byte
	kept := false
	pos := 12
	for i := uint32(0); i < count; i++ {
		var e indexEntry
		var committed bool
		var err error
		if pos, committed, err = readEntry(data[:end], pos, version, &name, &e); err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		if !committed {
			continue
		}
		if !byDirectory {
			kept = keep(name)
		} else if d := bytes.LastIndexByte(name, '/') + 1; d == 0 || d != len(dir) || !bytes.Equal(name[:d], dir) {
			kept = keep(name)
			dir = append(dir[:0], name[:d]...)
		}
		if !kept {
			continue
		}
		e.path = string(name)
		if e.mode&modeTypeMask == modeDir {
			return nil, fmt.Errorf("%w: sparse index (directory entry %s); run `git sparse-checkout disable` or set index.sparse=false", ErrUnsupported, e.path)
		}
		out.entries = append(out.entries, e)
	}
	tree, err := readExtensions(data[pos:end])
	if err != nil {
		return nil, err
	}
	out.tree = tree
	return out, nil
}

// readEntry decodes the entry at pos into e, leaving its path in name, and
// returns where the next entry starts and whether git commits the entry
// (it does not commit an intent-to-add entry, `git add -N`).
func readEntry(data []byte, pos int, version uint32, name *[]byte, e *indexEntry) (next int, committed bool, err error) {
	start := pos
	if pos+entryFixedSize > len(data) {
		return 0, false, errors.New("truncated")
	}
	e.mode = binary.BigEndian.Uint32(data[pos+24 : pos+28])
	e.hash = plumbing.Hash(data[pos+40 : pos+60])
	flags := binary.BigEndian.Uint16(data[pos+60 : pos+62])
	e.stage = int(flags>>12) & 3
	pos += entryFixedSize
	intentToAdd := false
	if flags&flagExtended != 0 {
		if version < 3 {
			return 0, false, errors.New("extended flags in a version 2 index")
		}
		if pos+2 > len(data) {
			return 0, false, errors.New("truncated extended flags")
		}
		intentToAdd = binary.BigEndian.Uint16(data[pos:pos+2])&flagIntentToAdd != 0
		pos += 2
	}
	if version == 4 {
		strip, n := varint(data[pos:])
		if n == 0 || strip > len(*name) {
			return 0, false, errors.New("corrupt path compression")
		}
		pos += n
		nul := bytes.IndexByte(data[pos:], 0)
		if nul < 0 {
			return 0, false, errors.New("unterminated path")
		}
		*name = append((*name)[:len(*name)-strip], data[pos:pos+nul]...)
		pos += nul + 1
	} else {
		nameLen := int(flags & 0xfff)
		if nameLen == 0xfff {
			nul := bytes.IndexByte(data[pos:], 0)
			if nul < 0 {
				return 0, false, errors.New("unterminated path")
			}
			nameLen = nul
		}
		if pos+nameLen > len(data) {
			return 0, false, errors.New("truncated path")
		}
		*name = append((*name)[:0], data[pos:pos+nameLen]...)
		// Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
		pos = start + (pos-start+nameLen+8)&^7
		if pos > len(data) {
			return 0, false, errors.New("truncated padding")
		}
	}
	return pos, !intentToAdd, nil
}

// varint decodes git's offset varint; n is 0 when data is too short or the
// value too large.
func varint(data []byte) (val, n int) {
	if len(data) == 0 {
		return 0, 0
	}
	c := data[0]
	val = int(c & 127)
	n = 1
	for c&128 != 0 {
		if n >= len(data) || n > 8 {
			return 0, 0
		}
		c = data[n]
		n++
		val = ((val + 1) << 7) | int(c&127)
	}
	return val, n
}

// readExtensions rejects index extensions that change what the entries
// mean (a split index keeps most entries elsewhere, a sparse index folds
// directories into single entries) and returns the cache tree.
func readExtensions(ext []byte) (*cacheTree, error) {
	var tree *cacheTree
	for len(ext) >= 8 {
		sig := string(ext[:4])
		size := uint64(binary.BigEndian.Uint32(ext[4:8]))
		if size > uint64(len(ext)-8) {
			return nil, fmt.Errorf("extension %q is truncated", sig)
		}
		body := ext[8 : 8+size]
		switch sig {
		case "link":
			return nil, fmt.Errorf("%w: split index (core.splitIndex); run `git update-index --no-split-index`", ErrUnsupported)
		case "sdir":
			return nil, fmt.Errorf("%w: sparse index (index.sparse); run `git sparse-checkout disable` or `git config index.sparse false`", ErrUnsupported)
		case "TREE":
			t, rest, err := parseCacheTree(body, 0)
			if err != nil {
				return nil, fmt.Errorf("cache tree: %w", err)
			}
			if len(rest) != 0 {
				return nil, errors.New("cache tree: trailing data")
			}
			tree = t
		}
		ext = ext[8+size:]
	}
	if len(ext) != 0 {
		return nil, errors.New("truncated extension header")
	}
	return tree, nil
}

// cacheTree is one directory of the index's cache-tree extension.
type cacheTree struct {
	// valid is false when an entry below was changed since the tree was
	// written; hash is then unknown.
	valid    bool
	hash     plumbing.Hash
	children map[string]*cacheTree
}

// maxCacheTreeDepth bounds the nesting of a crafted cache tree.
const maxCacheTreeDepth = 4096

// parseCacheTree decodes one cache-tree entry and its subtrees (git's
// index-format: NUL-terminated name, "<entry count> <subtree count>\n",
// the object id when the count is not negative, then the subtrees).
func parseCacheTree(data []byte, depth int) (*cacheTree, []byte, error) {
	if depth > maxCacheTreeDepth {
		return nil, nil, errors.New("nested too deeply")
	}
	nul := bytes.IndexByte(data, 0)
	if nul < 0 {
		return nil, nil, errors.New("unterminated name")
	}
	data = data[nul+1:]
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return nil, nil, errors.New("unterminated counts")
	}
	countText, subText, ok := bytes.Cut(data[:nl], []byte(" "))
	count, err1 := strconv.Atoi(string(countText))
	subtrees, err2 := strconv.Atoi(string(subText))
	if !ok || err1 != nil || err2 != nil || count < -1 || subtrees < 0 || subtrees > len(data) {
		return nil, nil, fmt.Errorf("bad counts %q", data[:nl])
	}
	data = data[nl+1:]
	t := &cacheTree{valid: count >= 0}
	if t.valid {
		if len(data) < hashLen {
			return nil, nil, errors.New("truncated object id")
		}
		t.hash = plumbing.Hash(data[:hashLen])
		data = data[hashLen:]
	}
	for i := 0; i < subtrees; i++ {
		name, _, _ := bytes.Cut(data, []byte{0})
		child, rest, err := parseCacheTree(data, depth+1)
		if err != nil {
			return nil, nil, err
		}
		if t.children == nil {
			t.children = map[string]*cacheTree{}
		}
		t.children[string(name)] = child
		data = rest
	}
	return t, data, nil
}

// child returns the cache tree of a subdirectory, or nil.
func (t *cacheTree) child(name string) *cacheTree {
	if t == nil {
		return nil
	}
	return t.children[name]
}

// Scope says which paths a check reads: those that may be governed
// (workspace.Candidate) and the policy files, every path, or a few named
// ones.
type Scope struct {
	// All includes every path (secrets.scope: staged).
	All bool
	// Only, when not nil, limits the scope to exactly these paths.
	Only []string
	// Policy adds these paths: small-hook's own configuration and the key
	// files it names, which are human-owned.
	Policy []string
	// Trusted is the revision (a full commit id) whose declarations
	// govern, besides the unit's own states: what a change may not
	// un-govern (see govern.go). "" for none.
	Trusted string
}
