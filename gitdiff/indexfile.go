package gitdiff

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
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
	// sparse are the directories a sparse index holds as one entry each
	// (only git's reading of an index has them), their paths ending in
	// "/": the commit holds their trees as they are.
	sparse []indexEntry
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
	out := &indexFile{tree: idx.tree, sparse: idx.sparse}
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
// error, never a panic or a silent misreading; so is what git refuses to
// read: entries out of order, and an extension git must understand (a
// lower-case signature) that this reader does not (the split index, the
// sparse index, and any other: the probe sends such indexes to git). The
// cache tree is checked against the entries (see verifyCacheTree). The
// trailing checksum is verified by the fast reader alongside this decoding
// (see verifyingChecksum), so that a fuzzer reaches the decoder with any
// bytes.
func parseIndexWith(data []byte, keep func([]byte) bool, byDirectory bool) (*indexFile, error) {
	layout, err := layoutOf(data)
	if err != nil {
		return nil, err
	}
	if ext := layout.mandatory(); ext != "" {
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, describeExtension(ext))
	}
	tree, err := readCacheTree(data[layout.entriesEnd : len(data)-hashLen])
	if err != nil {
		return nil, err
	}
	out := &indexFile{tree: tree}
	counter := treeCounter{root: tree}
	var name, prev []byte
	prevStage := 0
	// dir is the directory (with its "/") of the last path keep was
	// asked about, and kept its answer.
	var dir []byte
	kept := false
	pos := indexHeaderSize
	for i := uint32(0); i < layout.count; i++ {
		var e indexEntry
		var committed bool
		if pos, committed, err = readEntry(data[:layout.entriesEnd], pos, layout.version, &name, &e); err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		if err := inOrder(prev, prevStage, name, e.stage, i); err != nil {
			return nil, err
		}
		prev, prevStage = append(prev[:0], name...), e.stage
		counter.add(name)
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
			return nil, fmt.Errorf("%w: sparse index (directory entry %s)", ErrUnsupported, e.path)
		}
		out.entries = append(out.entries, e)
	}
	if err := verifyCacheTree(tree); err != nil {
		return nil, err
	}
	return out, nil
}

// inOrder checks that an entry follows the previous one as git writes
// them: paths in increasing byte order, a path repeated only for its
// conflict stages, in increasing order. git reads an index that breaks
// this and commits from it a tree that `git fsck` refuses (not sorted, or
// the same name twice), which the two readers of such a tree read
// differently: it is refused here.
func inOrder(prev []byte, prevStage int, name []byte, stage int, i uint32) error {
	if i == 0 {
		return nil
	}
	switch c := bytes.Compare(prev, name); {
	case c > 0:
		return fmt.Errorf("entry %d (%s) is out of order: git would commit a tree git fsck refuses (not sorted); rebuild the index with `git read-tree HEAD` (the work tree is kept) and stage the changes again", i, name)
	case c == 0 && (prevStage == 0 || prevStage >= stage):
		return fmt.Errorf("entry %d (%s) is listed twice: git would commit a tree git fsck refuses (the same name twice); rebuild the index with `git read-tree HEAD` (the work tree is kept) and stage the changes again", i, name)
	}
	return nil
}

// indexHeaderSize is the signature, version and entry count.
const indexHeaderSize = 12

// indexLayout is where the parts of an index file are.
type indexLayout struct {
	version, count uint32
	// entriesEnd is where the extensions start.
	entriesEnd int
	// extensions are the signatures of the extensions, in order.
	extensions []string
}

// layoutOf walks over the entries of an index without decoding them, to
// find its extensions: the probe at Open reads what an index holds this
// way, and the decoding reads the cache tree before the entries.
func layoutOf(data []byte) (indexLayout, error) {
	if len(data) < indexHeaderSize+hashLen || string(data[:4]) != "DIRC" {
		return indexLayout{}, errors.New("not a git index file")
	}
	end := len(data) - hashLen
	l := indexLayout{version: binary.BigEndian.Uint32(data[4:8]), count: binary.BigEndian.Uint32(data[8:12])}
	if l.version < 2 || l.version > 4 {
		return indexLayout{}, fmt.Errorf("index version %d is not supported", l.version)
	}
	if uint64(l.count) > uint64(end)/entryMinSize {
		return indexLayout{}, fmt.Errorf("index claims %d entries, more than its size allows", l.count)
	}
	pos, nameLen := indexHeaderSize, 0
	for i := uint32(0); i < l.count; i++ {
		var err error
		if pos, err = skipEntry(data[:end], pos, l.version, &nameLen); err != nil {
			return indexLayout{}, fmt.Errorf("entry %d: %w", i, err)
		}
	}
	l.entriesEnd = pos
	for ext := data[pos:end]; len(ext) > 0; {
		if len(ext) < 8 {
			return indexLayout{}, errors.New("truncated extension header")
		}
		size := uint64(binary.BigEndian.Uint32(ext[4:8]))
		if size > uint64(len(ext)-8) {
			return indexLayout{}, fmt.Errorf("extension %q is truncated", ext[:4])
		}
		l.extensions = append(l.extensions, string(ext[:4]))
		ext = ext[8+size:]
	}
	return l, nil
}

// mandatory returns the first extension of the index that the fast reader
// does not read and that git must understand to read the index (git
// refuses an index with one it does not know); "" when there is none. An
// extension whose signature starts with an upper-case letter is optional:
// git ignores those it does not know, and so does this reader.
func (l indexLayout) mandatory() string {
	for _, ext := range l.extensions {
		if ext[0] < 'A' || ext[0] > 'Z' {
			return ext
		}
	}
	return ""
}

// describeExtension names a mandatory index extension for an error.
func describeExtension(sig string) string {
	switch sig {
	case "link":
		return "split index (core.splitIndex)"
	case "sdir":
		return "sparse index (index.sparse)"
	}
	return fmt.Sprintf("index extension %q", sig)
}

// skipEntry returns where the entry at pos ends, checking its lengths as
// readEntry does; nameLen is the length of the previous path (version 4
// paths are written as changes to it).
func skipEntry(data []byte, pos int, version uint32, nameLen *int) (int, error) {
	start := pos
	if pos+entryFixedSize > len(data) {
		return 0, errors.New("truncated")
	}
	flags := binary.BigEndian.Uint16(data[pos+60 : pos+62])
	pos += entryFixedSize
	if flags&flagExtended != 0 {
		if version < 3 {
			return 0, errors.New("extended flags in a version 2 index")
		}
		if pos+2 > len(data) {
			return 0, errors.New("truncated extended flags")
		}
		pos += 2
	}
	if version == 4 {
		strip, n := varint(data[pos:])
		if n == 0 || strip > *nameLen {
			return 0, errors.New("corrupt path compression")
		}
		pos += n
		nul := bytes.IndexByte(data[pos:], 0)
		if nul < 0 {
			return 0, errors.New("unterminated path")
		}
		*nameLen += nul - strip
		return pos + nul + 1, nil
	}
	nameLen2 := int(flags & 0xfff)
	if nameLen2 == 0xfff {
		nul := bytes.IndexByte(data[pos:], 0)
		if nul < 0 {
			return 0, errors.New("unterminated path")
		}
		nameLen2 = nul
	}
	if pos+nameLen2 > len(data) {
		return 0, errors.New("truncated path")
	}
	// Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
	pos = start + (pos-start+nameLen2+8)&^7
	if pos > len(data) {
		return 0, errors.New("truncated padding")
	}
	return pos, nil
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

// readCacheTree returns the cache tree among an index's extensions (nil
// when there is none), ignoring every other extension.
func readCacheTree(ext []byte) (*cacheTree, error) {
	var tree *cacheTree
	for len(ext) >= 8 {
		sig := string(ext[:4])
		size := uint64(binary.BigEndian.Uint32(ext[4:8]))
		if size > uint64(len(ext)-8) {
			return nil, fmt.Errorf("extension %q is truncated", sig)
		}
		if sig == "TREE" {
			t, rest, err := parseCacheTree(ext[8:8+size], 0)
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
	valid bool
	hash  plumbing.Hash
	// entryCount is how many index entries the directory holds, as the
	// cache tree records it; entries is how many it does hold.
	entryCount, entries int
	children            map[string]*cacheTree
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
	t := &cacheTree{valid: count >= 0, entryCount: count}
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

// treeCounter counts, for each directory of a cache tree, the index
// entries it holds, as the entries go by in index order.
type treeCounter struct {
	root *cacheTree
	// dir is the directory of the last entry (with its "/"), and chain the
	// cache-tree nodes from the root down to it, as far as they go.
	dir   []byte
	chain []*cacheTree
}

// add counts the entry at path in every directory above it.
func (c *treeCounter) add(path []byte) {
	if c.root == nil {
		return
	}
	if d := bytes.LastIndexByte(path, '/') + 1; len(c.chain) == 0 || d != len(c.dir) || !bytes.Equal(path[:d], c.dir) {
		c.dir = append(c.dir[:0], path[:d]...)
		c.chain = append(c.chain[:0], c.root)
		for node, rest := c.root, c.dir; len(rest) > 0; {
			i := bytes.IndexByte(rest, '/')
			if node = node.children[string(rest[:i])]; node == nil {
				break
			}
			c.chain = append(c.chain, node)
			rest = rest[i+1:]
		}
	}
	for _, n := range c.chain {
		n.entries++
	}
}

// verifyCacheTree checks the cache tree against the entries counted into
// it. When git writes the tree of a commit (cache-tree.c, update_one), it
// takes the object id of a valid directory without looking at its entries,
// and skips as many entries as the directory claims to hold: where that
// count is wrong, the commit would hold other files than the index lists.
// git keeps the counts right; an index whose counts are wrong was written
// by something else, and is refused. A directory that holds no entry is
// never looked at by git, and the root's count is never used.
func verifyCacheTree(root *cacheTree) error {
	if root == nil {
		return nil
	}
	var walk func(t *cacheTree, path string) error
	walk = func(t *cacheTree, path string) error {
		if path != "" && t.valid && t.entries > 0 && t.entries != t.entryCount {
			return fmt.Errorf("the cache tree says %s holds %d entries, but the index lists %d there: git would commit other files than the index shows. This index was not written by git: rebuild it with `git read-tree HEAD` (the work tree is kept) and stage the changes again", path, t.entryCount, t.entries)
		}
		for _, name := range slices.Sorted(maps.Keys(t.children)) {
			if err := walk(t.children[name], path+name+"/"); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(root, "")
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
}
