package gitread

import (
	"bytes"
	"errors"

	"github.com/go-git/go-git/v5/plumbing"
)

// errMalformedCommit is a commit object without the tree line first or
// with a parent line that holds no object id.
var errMalformedCommit = errors.New("malformed commit")

// CommitParents reads the parents of a commit object as git (and go-git)
// read them: the "parent" lines that directly follow the first line,
// which must name the tree. A range walk needs nothing else of the
// ancestors it reads, and decoding whole commits with go-git would cost
// more than reading them.
func CommitParents(data []byte) ([]plumbing.Hash, error) {
	line, rest := nextLine(data)
	key, value := splitHeader(line)
	if _, ok := ParseHex(value); string(key) != "tree" || !ok {
		return nil, errMalformedCommit
	}
	var parents []plumbing.Hash
	for len(rest) > 0 {
		line, rest = nextLine(rest)
		key, value := splitHeader(line)
		if len(line) == 0 || string(key) != "parent" {
			break
		}
		h, ok := ParseHex(value)
		if !ok {
			return nil, errMalformedCommit
		}
		parents = append(parents, h)
	}
	return parents, nil
}

// ParseHex decodes an object id written as 40 hexadecimal digits, in
// either case (as plumbing.IsHash accepts them), without allocating.
func ParseHex(text []byte) (plumbing.Hash, bool) {
	var h plumbing.Hash
	if len(text) != 2*hashLen {
		return h, false
	}
	for i := range h {
		hi, ok1 := hexValue(text[2*i])
		lo, ok2 := hexValue(text[2*i+1])
		if !ok1 || !ok2 {
			return h, false
		}
		h[i] = hi<<4 | lo
	}
	return h, true
}

func hexValue(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// nextLine splits off the first line of data, without its "\n".
func nextLine(data []byte) (line, rest []byte) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[:i], data[i+1:]
	}
	return data, nil
}

// splitHeader splits a header line into its key and the value after the
// first space.
func splitHeader(line []byte) ([]byte, []byte) {
	key, value, _ := bytes.Cut(line, []byte{' '})
	return key, value
}
