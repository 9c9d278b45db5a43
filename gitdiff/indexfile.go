package gitdiff

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
)

// indexEntry is one entry of the git index that a check is interested in.
type indexEntry struct {
	path  string
	hash  string
	mode  uint32
	stage int
}

// index mode bits.
const (
	modeTypeMask = 0o170000
	modeSymlink  = 0o120000
	modeGitlink  = 0o160000
	modeDir      = 0o040000
)

// readIndex reads the entries of the index whose paths are in scope. It
// decodes the index format (versions 2, 3 and 4) itself, because a hook
// must not pay for decoding every entry of a large repository's index into
// structures it then ignores. The file is read once per run.
func (r *Repo) readIndex(scope Scope) ([]indexEntry, error) {
	path := r.indexPath()
	if !r.indexRead {
		data, err := os.ReadFile(path)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("reading the index: %w", err)
		}
		r.index, r.indexRead = data, true
	}
	if r.index == nil {
		return nil, nil
	}
	entries, err := parseIndex(r.index, scope)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", path, err)
	}
	return entries, nil
}

const hashLen = 20

func parseIndex(data []byte, scope Scope) ([]indexEntry, error) {
	if len(data) < 12+hashLen || string(data[:4]) != "DIRC" {
		return nil, errors.New("not a git index file")
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, fmt.Errorf("index version %d is not supported", version)
	}
	count := int(binary.BigEndian.Uint32(data[8:12]))
	end := len(data) - hashLen
	pos := 12
	var out []indexEntry
	var name []byte
	for i := 0; i < count; i++ {
		if pos+62 > end {
			return nil, errors.New("truncated index entry")
		}
		start := pos
		mode := binary.BigEndian.Uint32(data[pos+24 : pos+28])
		hash := data[pos+40 : pos+60]
		flags := binary.BigEndian.Uint16(data[pos+60 : pos+62])
		pos += 62
		if flags&0x4000 != 0 {
			if version < 3 {
				return nil, errors.New("extended flags in a version 2 index")
			}
			pos += 2
		}
		if version == 4 {
			strip, n := varint(data[pos:end])
			if n == 0 || strip > len(name) {
				return nil, errors.New("corrupt path compression")
			}
			pos += n
			nul := bytes.IndexByte(data[pos:end], 0)
			if nul < 0 {
				return nil, errors.New("unterminated path")
			}
			name = append(name[:len(name)-strip], data[pos:pos+nul]...)
			pos += nul + 1
		} else {
			nameLen := int(flags & 0xfff)
			if nameLen == 0xfff {
				nul := bytes.IndexByte(data[pos:end], 0)
				if nul < 0 {
					return nil, errors.New("unterminated path")
				}
				nameLen = nul
			}
			if pos+nameLen > end {
				return nil, errors.New("truncated path")
			}
			name = append(name[:0], data[pos:pos+nameLen]...)
			// Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
			pos = start + (pos-start+nameLen+8)&^7
		}
		if pos > end {
			return nil, errors.New("truncated index entry")
		}
		if !scope.containsBytes(name) {
			continue
		}
		p := string(name)
		if mode&modeTypeMask == modeDir {
			return nil, fmt.Errorf("%w: sparse index (directory entry %s); run `git sparse-checkout disable` or set index.sparse=false", ErrUnsupported, p)
		}
		out = append(out, indexEntry{path: p, hash: hex.EncodeToString(hash), mode: mode, stage: int(flags>>12) & 3})
	}
	if err := checkExtensions(data[pos:end]); err != nil {
		return nil, err
	}
	return out, nil
}

// checkExtensions rejects index extensions that change what the entries
// mean: a split index keeps most entries elsewhere, a sparse index folds
// directories into single entries.
func checkExtensions(ext []byte) error {
	for len(ext) >= 8 {
		sig := string(ext[:4])
		size := int(binary.BigEndian.Uint32(ext[4:8]))
		switch sig {
		case "link":
			return fmt.Errorf("%w: split index (core.splitIndex); run `git update-index --no-split-index`", ErrUnsupported)
		case "sdir":
			return fmt.Errorf("%w: sparse index (index.sparse); run `git sparse-checkout disable` or `git config index.sparse false`", ErrUnsupported)
		}
		if size < 0 || 8+size > len(ext) {
			return nil
		}
		ext = ext[8+size:]
	}
	return nil
}

// varint decodes git's offset varint; n is 0 when data is too short.
func varint(data []byte) (val, n int) {
	if len(data) == 0 {
		return 0, 0
	}
	c := data[0]
	val = int(c & 127)
	n = 1
	for c&128 != 0 {
		if n >= len(data) || n > 9 {
			return 0, 0
		}
		c = data[n]
		n++
		val = ((val + 1) << 7) | int(c&127)
	}
	return val, n
}

// Scope says which paths a check reads.
type Scope struct {
	// Prefixes are directory prefixes ending in "/".
	Prefixes []string
	// All includes every path.
	All bool
}

// GovernedScope is the default scope: the SMALL workspace, the SMP
// artifacts and awp's private directory.
func GovernedScope() Scope {
	return Scope{Prefixes: []string{".small/", "artifacts/", ".awp/"}}
}

// containsBytes reports whether a path, held as bytes, is in scope; it
// does not allocate.
func (s Scope) containsBytes(path []byte) bool {
	if s.All {
		return true
	}
	for _, p := range s.Prefixes {
		if len(path) >= len(p) && string(path[:len(p)]) == p {
			return true
		}
	}
	return false
}
