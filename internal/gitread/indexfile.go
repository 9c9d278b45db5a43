package gitread

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

	"github.com/small-hook/small-hook/internal/workspace"
)

// IndexEntry is one entry of the git index that a check is interested in.
type IndexEntry struct {
	Path  string
	Hash  plumbing.Hash
	Mode  uint32
	Stage int
}

// IndexFile is what a check reads of the index file: the entries in scope and
// the cache tree.
type IndexFile struct {
	Entries []IndexEntry
	// Tree is the cache-tree extension (nil when the index has none): the
	// tree object ids of directories whose entries are unchanged since the
	// last tree was written from the index.
	Tree *CacheTree
	// Sparse are the directories a sparse index holds as one entry each
	// (only git's reading of an index has them), their paths ending in
	// "/": the commit holds their trees as they are.
	Sparse []IndexEntry
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
func (idx *IndexFile) within(scope Scope) *IndexFile {
	out := &IndexFile{Tree: idx.Tree, Sparse: idx.Sparse}
	for _, e := range idx.Entries {
		if scope.ContainsPath(e.Path) {
			out.Entries = append(out.Entries, e)
		}
	}
	return out
}

// parseIndex decodes the entries of the index in scope.
func parseIndex(data []byte, scope Scope) (*IndexFile, error) {
	return parseIndexWith(data, scope.contains, false)
}

// parseIndexWith decodes the index format (versions 2, 3 and 4) itself
// rather than with go-git, keeping the entries whose paths keep accepts
// (byDirectory: keep's answer depends only on the path's directory, so it
// is asked once for each run of entries in the same directory):
// go-git's decoder reads every entry of a large repository's index into
// structures through reflection (about 80 ms for 50,000 entries), which a
// hook would pay on every commit for the few entries it looks at. It reads
// the file once, front to back. Every length is checked against the data,
// so a corrupt or crafted index is an error, never a panic or a silent
// misreading; so is what would make git commit something else than the
// entries say: entries out of order (see inOrder), a cache tree whose
// counts are wrong (see verifyCacheTree), and an extension git must
// understand (a lower-case signature) that this decoder does not read (the
// split index, the sparse index, or any other: an extensionError, which
// the probe answers by having git read the repository). The trailing
// checksum is verified by the fast reader alongside this decoding (see
// verifyingChecksum), so that a fuzzer reaches the decoder with any bytes.
func parseIndexWith(data []byte, keep func([]byte) bool, byDirectory bool) (*IndexFile, error) {
	idx, err := parseIndexEntries(data, keep, byDirectory)
	if err != nil {
		// The entries of a split index's own file are not a whole index
		// (a replaced entry has no path): an extension the decoder does
		// not read explains an error better than the error does.
		var ext *extensionError
		if !errors.As(err, &ext) {
			if ext = mandatoryExtension(data); ext != nil {
				return nil, ext
			}
		}
		return nil, err
	}
	return idx, nil
}

// mandatoryExtension returns the first extension of index data that git
// must understand and the decoder does not read, if it can be found.
func mandatoryExtension(data []byte) *extensionError {
	start, err := extensionsStart(data)
	if err != nil {
		return nil
	}
	exts, err := extensionsOf(data[start : len(data)-hashLen])
	if err != nil {
		return nil
	}
	for _, ext := range exts {
		if ext.sig[0] < 'A' || ext.sig[0] > 'Z' {
			return &extensionError{sig: ext.sig}
		}
	}
	return nil
}

// parseIndexEntries is parseIndexWith, which it leaves to explain errors.
func parseIndexEntries(data []byte, keep func([]byte) bool, byDirectory bool) (*IndexFile, error) {
	if len(data) < indexHeaderSize+hashLen || string(data[:4]) != "DIRC" {
		return nil, errors.New("not a git index file")
	}
	end := len(data) - hashLen
	version, count := binary.BigEndian.Uint32(data[4:8]), binary.BigEndian.Uint32(data[8:12])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("index version %d is not supported", version)
	}
	if uint64(count) > uint64(end)/entryMinSize {
		return nil, fmt.Errorf("index claims %d entries, more than its size allows", count)
	}
	out := &IndexFile{}
	var runs dirRuns
	var name, prev []byte
	prevStage := 0
	// keptRun is the run of entries (see dirRuns) whose directory keep
	// was last asked about, and kept its answer.
	keptRun, kept := -1, false
	pos := indexHeaderSize
	for i := uint32(0); i < count; i++ {
		var e IndexEntry
		var committed bool
		var err error
		if pos, committed, err = readEntry(data[:end], pos, version, &name, &e); err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		if err := inOrder(prev, prevStage, name, e.Stage, i); err != nil {
			return nil, err
		}
		run, root := runs.add(name)
		if committed {
			if !byDirectory || root || run != keptRun {
				kept, keptRun = keep(name), run
			}
			if kept {
				e.Path = string(name)
				if e.Mode&modeTypeMask == modeDir {
					return nil, fmt.Errorf("%w: sparse index (directory entry %s)", ErrUnsupported, e.Path)
				}
				out.Entries = append(out.Entries, e)
			}
		}
		// Versions 2 and 3 leave name in data, which is never written;
		// version 4 builds each path from the previous one in name.
		if version == 4 {
			prev = append(prev[:0], name...)
		} else {
			prev = name
		}
		prevStage = e.Stage
	}
	exts, err := extensionsOf(data[pos:end])
	if err != nil {
		return nil, err
	}
	for _, ext := range exts {
		if ext.sig[0] < 'A' || ext.sig[0] > 'Z' {
			return nil, &extensionError{sig: ext.sig}
		}
		if ext.sig == "TREE" {
			if out.Tree, err = readCacheTree(ext.body); err != nil {
				return nil, err
			}
		}
	}
	runs.countInto(out.Tree)
	if err := verifyCacheTree(out.Tree); err != nil {
		return nil, err
	}
	return out, nil
}

// extensionError is an index that holds an extension git must understand
// and the fast reader does not read.
type extensionError struct{ sig string }

func (e *extensionError) Error() string {
	return fmt.Sprintf("%v: %s, which small-hook's index reader does not read", ErrUnsupported, describeExtension(e.sig))
}

func (e *extensionError) Unwrap() error { return ErrUnsupported }

// extension is one extension of an index: its signature and its data.
type extension struct {
	sig  string
	body []byte
}

// extensionsOf splits the extensions of an index, checking their lengths.
func extensionsOf(data []byte) ([]extension, error) {
	var out []extension
	for len(data) > 0 {
		if len(data) < 8 {
			return nil, errors.New("truncated extension header")
		}
		size := uint64(binary.BigEndian.Uint32(data[4:8]))
		if size > uint64(len(data)-8) {
			return nil, fmt.Errorf("extension %q is truncated", data[:4])
		}
		out = append(out, extension{sig: string(data[:4]), body: data[8 : 8+size]})
		data = data[8+size:]
	}
	return out, nil
}

// dirRuns records the directories of an index's entries as they go by, in
// runs of entries in the same directory, for the cache tree's counts.
type dirRuns struct {
	// dirs holds the runs' directories one after the other (each ending
	// in "/", "" for the root).
	dirs []byte
	runs []dirRun
}

// dirRun is a run of entries in one directory: dirs[start:end], count
// entries.
type dirRun struct{ start, end, count int }

// add counts the entry at path and returns the number of its run (runs
// are numbered from 0 in order: entries of one run share their directory)
// and whether it is a file at the root.
func (r *dirRuns) add(path []byte) (run int, root bool) {
	d := bytes.LastIndexByte(path, '/') + 1
	if n := len(r.runs); n > 0 {
		last := &r.runs[n-1]
		if last.end-last.start == d && bytes.Equal(r.dirs[last.start:last.end], path[:d]) {
			last.count++
			return n - 1, d == 0
		}
	}
	start := len(r.dirs)
	r.dirs = append(r.dirs, path[:d]...)
	r.runs = append(r.runs, dirRun{start: start, end: len(r.dirs), count: 1})
	return len(r.runs) - 1, d == 0
}

// countInto adds the entries of every run to the directories of the cache
// tree that hold them (nil: none).
func (r *dirRuns) countInto(root *CacheTree) {
	if root == nil {
		return
	}
	for _, run := range r.runs {
		root.Entries += run.count
		node, rest := root, r.dirs[run.start:run.end]
		for len(rest) > 0 {
			i := bytes.IndexByte(rest, '/')
			if node = node.Children[string(rest[:i])]; node == nil {
				break
			}
			node.Entries += run.count
			rest = rest[i+1:]
		}
	}
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

// extensionsStart walks over the entries of an index without decoding
// them and returns where its extensions start: git's reading of an index
// takes the entries from git, and the cache tree from the file (see
// cacheTreeOf).
func extensionsStart(data []byte) (int, error) {
	if len(data) < indexHeaderSize+hashLen || string(data[:4]) != "DIRC" {
		return 0, errors.New("not a git index file")
	}
	end := len(data) - hashLen
	version, count := binary.BigEndian.Uint32(data[4:8]), binary.BigEndian.Uint32(data[8:12])
	if version < 2 || version > 4 {
		return 0, fmt.Errorf("index version %d is not supported", version)
	}
	if uint64(count) > uint64(end)/entryMinSize {
		return 0, fmt.Errorf("index claims %d entries, more than its size allows", count)
	}
	pos, nameLen := indexHeaderSize, 0
	for i := uint32(0); i < count; i++ {
		var err error
		if pos, err = skipEntry(data[:end], pos, version, &nameLen); err != nil {
			return 0, fmt.Errorf("entry %d: %w", i, err)
		}
	}
	return pos, nil
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
func readEntry(data []byte, pos int, version uint32, name *[]byte, e *IndexEntry) (next int, committed bool, err error) {
	start := pos
	if pos+entryFixedSize > len(data) {
		return 0, false, errors.New("truncated")
	}
	e.Mode = binary.BigEndian.Uint32(data[pos+24 : pos+28])
	e.Hash = plumbing.Hash(data[pos+40 : pos+60])
	flags := binary.BigEndian.Uint16(data[pos+60 : pos+62])
	e.Stage = int(flags>>12) & 3
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
		// The path stays in data; a capacity of its length makes any
		// append to it copy.
		*name = data[pos : pos+nameLen : pos+nameLen]
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

// readCacheTree decodes the body of a cache-tree extension.
func readCacheTree(body []byte) (*CacheTree, error) {
	t, rest, err := parseCacheTree(body, 0)
	if err != nil {
		return nil, fmt.Errorf("cache tree: %w", err)
	}
	if len(rest) != 0 {
		return nil, errors.New("cache tree: trailing data")
	}
	return t, nil
}

// CacheTree is one directory of the index's cache-tree extension.
type CacheTree struct {
	// Valid is false when an entry below was changed since the tree was
	// written; Hash is then unknown.
	Valid bool
	Hash  plumbing.Hash
	// entryCount is how many index entries the directory holds, as the
	// cache tree records it; Entries is how many it does hold.
	entryCount, Entries int
	Children            map[string]*CacheTree
}

// maxCacheTreeDepth bounds the nesting of a crafted cache tree.
const maxCacheTreeDepth = 4096

// parseCacheTree decodes one cache-tree entry and its subtrees (git's
// index-format: NUL-terminated name, "<entry count> <subtree count>\n",
// the object id when the count is not negative, then the subtrees).
func parseCacheTree(data []byte, depth int) (*CacheTree, []byte, error) {
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
	t := &CacheTree{Valid: count >= 0, entryCount: count}
	if t.Valid {
		if len(data) < hashLen {
			return nil, nil, errors.New("truncated object id")
		}
		t.Hash = plumbing.Hash(data[:hashLen])
		data = data[hashLen:]
	}
	for i := 0; i < subtrees; i++ {
		name, _, _ := bytes.Cut(data, []byte{0})
		child, rest, err := parseCacheTree(data, depth+1)
		if err != nil {
			return nil, nil, err
		}
		if t.Children == nil {
			t.Children = map[string]*CacheTree{}
		}
		t.Children[string(name)] = child
		data = rest
	}
	return t, data, nil
}

// Child returns the cache tree of a subdirectory, or nil.
func (t *CacheTree) Child(name string) *CacheTree {
	if t == nil {
		return nil
	}
	return t.Children[name]
}

// verifyCacheTree checks the cache tree against the entries counted into
// it. When git writes the tree of a commit (cache-tree.c, update_one), it
// takes the object id of a valid directory without looking at its entries,
// and skips as many entries as the directory claims to hold: where that
// count is wrong, the commit would hold other files than the index lists.
// git keeps the counts right; an index whose counts are wrong was written
// by something else, and is refused. A directory that holds no entry is
// never looked at by git, and the root's count is never used.
func verifyCacheTree(root *CacheTree) error {
	if root == nil {
		return nil
	}
	var walk func(t *CacheTree, path string) error
	walk = func(t *CacheTree, path string) error {
		if path != "" && t.Valid && t.Entries > 0 && t.Entries != t.entryCount {
			return fmt.Errorf("the cache tree says %s holds %d entries, but the index lists %d there: git would commit other files than the index shows. This index was not written by git: rebuild it with `git read-tree HEAD` (the work tree is kept) and stage the changes again", path, t.entryCount, t.Entries)
		}
		for _, name := range slices.Sorted(maps.Keys(t.Children)) {
			if err := walk(t.Children[name], path+name+"/"); err != nil {
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
	// Trusted is the revision (a full commit id) whose declarations
	// govern, besides the unit's own states: what a change may not
	// un-govern (see govern.go). "" for none.
	Trusted string
}
