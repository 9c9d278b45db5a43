package gitread

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// errAmbiguousCommit marks a commit whose headers git reads in more than
// one way.
var errAmbiguousCommit = errors.New("malformed commit")

// DecodeCommit decodes a commit object in one pass over it, in time linear
// in its size: go-git's decoder joins continuation lines with += (a 1 MB
// header took seconds). It reads what a check uses, as git reads it: the
// tree, the parents, the author and the committer (split as git splits an
// identity: the name before the first "<", the e-mail up to the next ">"),
// the signature (the gpgsig headers, every occurrence joined, as
// parse_buffer_signed_by_header does) and the message after the first
// blank line. A commit that git itself reads in two ways is refused: the
// tree, the parents, the author and the committer must come first and in
// that order (git's fsck and parse_commit_buffer expect them there), and no
// later header may repeat them (git's log would show a later author than
// the one the commit was made with).
func DecodeCommit(h plumbing.Hash, data []byte) (*object.Commit, error) {
	c := &object.Commit{Hash: h}
	var signature strings.Builder
	stage := 0 // 0: tree, 1: parents, 2: author, 3: committer, 4: other headers
	inSignature := false
	rest := data
	for len(rest) > 0 {
		line, after, found := bytes.Cut(rest, []byte{'\n'})
		if !found {
			return nil, fmt.Errorf("%w: its last header line does not end", errAmbiguousCommit)
		}
		rest = after
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' {
			if inSignature {
				signature.Write(line[1:])
				signature.WriteByte('\n')
			}
			continue
		}
		inSignature = false
		key, value, _ := bytes.Cut(line, []byte{' '})
		switch k := string(key); {
		case stage == 0 && k == "tree":
			id, ok := ParseHex(value)
			if !ok {
				return nil, fmt.Errorf("%w: bad tree line", errAmbiguousCommit)
			}
			c.TreeHash, stage = id, 1
		case stage == 0:
			return nil, fmt.Errorf("%w: it does not start with its tree", errAmbiguousCommit)
		case stage == 1 && k == "parent":
			id, ok := ParseHex(value)
			if !ok {
				return nil, fmt.Errorf("%w: bad parent line", errAmbiguousCommit)
			}
			c.ParentHashes = append(c.ParentHashes, id)
		case stage <= 2 && k == "author":
			c.Author, stage = SplitIdentity(value), 3
		case stage <= 2:
			return nil, fmt.Errorf("%w: no author after the parents", errAmbiguousCommit)
		case stage == 3 && k == "committer":
			c.Committer, stage = SplitIdentity(value), 4
		case stage == 3:
			return nil, fmt.Errorf("%w: no committer after the author", errAmbiguousCommit)
		case k == "tree", k == "parent", k == "author", k == "committer":
			return nil, fmt.Errorf("%w: a second %s header", errAmbiguousCommit, k)
		case k == "gpgsig":
			signature.Write(value)
			signature.WriteByte('\n')
			inSignature = true
		}
	}
	if stage < 4 {
		return nil, fmt.Errorf("%w: its headers end before its committer", errAmbiguousCommit)
	}
	c.PGPSignature = signature.String()
	c.Message = string(rest)
	return c, nil
}

// SplitIdentity reads "Name <email> timestamp zone" as git's
// split_ident_line does: the e-mail between the first "<" and the first
// ">" after it, the name before it without trailing spaces, the time after
// it (the zero time when it cannot be read). Without both brackets git
// reads no identity at all.
func SplitIdentity(value []byte) object.Signature {
	lt := bytes.IndexByte(value, '<')
	if lt < 0 {
		return object.Signature{}
	}
	gt := bytes.IndexByte(value[lt+1:], '>')
	if gt < 0 {
		return object.Signature{}
	}
	gt += lt + 1
	s := object.Signature{Name: strings.TrimRight(string(value[:lt]), " \t"), Email: string(value[lt+1 : gt])}
	date := strings.Fields(string(value[gt+1:]))
	if len(date) == 0 {
		return s
	}
	seconds, err := strconv.ParseInt(date[0], 10, 64)
	if err != nil {
		return s
	}
	zone := time.UTC
	if len(date) > 1 && len(date[1]) == 5 && (date[1][0] == '+' || date[1][0] == '-') {
		if hhmm, err := strconv.Atoi(date[1][1:]); err == nil {
			offset := (hhmm/100)*3600 + (hhmm%100)*60
			if date[1][0] == '-' {
				offset = -offset
			}
			zone = time.FixedZone("", offset)
		}
	}
	s.When = time.Unix(seconds, 0).In(zone)
	return s
}
