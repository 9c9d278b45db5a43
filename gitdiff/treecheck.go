package gitdiff

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// errMalformedTree marks a tree that git's fsck refuses.
var errMalformedTree = errors.New("git fsck refuses this tree")

// checkTree reads a tree's bytes as go-git decodes them (see decodeEntry)
// and refuses a tree that git and small-hook could read differently, as
// `git fsck` refuses it (fsck.c, fsck_tree): entries not in git's order
// (git's lookups and diffs stop early on the order they expect), the same
// name twice (go-git's lookups take the last, git's the first), and names
// that are not a single path component (empty, ".", "..", or holding a
// "/", which would alias another path). It walks the bytes once and
// returns where each entry starts, in one allocation; an error decoding
// any entry is reported before what fsck refuses, as when the tree was
// decoded whole first.
func checkTree(data []byte) ([]int, error) {
	// An entry takes at least 24 bytes: a mode digit, a space, a name
	// byte, a NUL and an id.
	starts := make([]int, 0, len(data)/24)
	var refused error
	var prev treeEntry
	// prefixes holds the names of the entries that every entry since
	// starts with, shortest first (see refuses).
	var prefixes [][]byte
	for size := len(data); len(data) > 0; {
		starts = append(starts, size-len(data))
		e, rest, err := decodeEntry(data)
		if err != nil {
			return nil, err
		}
		data = rest
		if refused == nil {
			refused = refuses(&prev, &e, len(starts) == 1, &prefixes)
		}
		prev = e
	}
	return starts, refused
}

// refuses is the reason fsck refuses entry e of a tree after prev (the
// entry before; none when first), or nil. prefixes are the names of the
// entries before e that every entry since starts with: in git's order a
// file and a directory of the same name sort apart ("a", "a.b", "a/"),
// with only names that start with it between them, so a directory repeats
// a file's name exactly when that name is among prefixes.
func refuses(prev, e *treeEntry, first bool, prefixes *[][]byte) error {
	name := e.name
	if len(name) <= 2 && (string(name) == "." || string(name) == "..") || bytes.IndexByte(name, '/') >= 0 {
		return fmt.Errorf("%w: it holds an entry named %q", errMalformedTree, name)
	}
	if !first {
		switch c := compareTreeNames(prev.name, prev.isDir(), name, e.isDir()); {
		case c == 0, bytes.Equal(prev.name, name):
			return fmt.Errorf("%w: it lists %q twice", errMalformedTree, name)
		case c > 0:
			return fmt.Errorf("%w: its entries are not sorted (%q before %q)", errMalformedTree, prev.name, name)
		}
	}
	p := *prefixes
	for len(p) > 0 && !bytes.HasPrefix(name, p[len(p)-1]) {
		p = p[:len(p)-1]
	}
	if e.isDir() && len(p) > 0 && len(p[len(p)-1]) == len(name) {
		return fmt.Errorf("%w: it lists %q twice", errMalformedTree, name)
	}
	*prefixes = append(p, name)
	return nil
}

// compareTreeNames orders two tree entries as git does (tree.c,
// base_name_compare): by name, a directory's name followed by "/".
func compareTreeNames(a []byte, aDir bool, b []byte, bDir bool) int {
	n := min(len(a), len(b))
	if c := bytes.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	next := func(name []byte, dir bool) byte {
		switch {
		case len(name) > n:
			return name[n]
		case dir:
			return '/'
		}
		return 0
	}
	ca, cb := next(a, aDir), next(b, bDir)
	switch {
	case ca < cb:
		return -1
	case ca > cb:
		return 1
	}
	return 0
}

// findEntry returns the entry at path below tree h (found false when there
// is none), reading each tree on the way with Repo.tree, so that every tree
// is checked. Each name is found by binary search (treeObject.find), which
// the git order checkTree enforces makes exact.
func (r *Repo) findEntry(h plumbing.Hash, path string) (entry, bool, error) {
	for {
		t, err := r.tree(h)
		if err != nil {
			return entry{}, false, err
		}
		name, rest, deeper := strings.Cut(path, "/")
		found, ok := t.find(name)
		if !ok || !deeper {
			return found, ok, nil
		}
		if found.mode != filemode.Dir {
			return entry{}, false, nil
		}
		h, path = found.hash, rest
	}
}
