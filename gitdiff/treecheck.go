package gitdiff

import (
	"errors"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// errMalformedTree marks a tree that git's fsck refuses.
var errMalformedTree = errors.New("git fsck refuses this tree")

// checkTree refuses a tree that git and small-hook could read differently,
// as `git fsck` refuses it (fsck.c, fsck_tree): entries not in git's order
// (git's lookups and diffs stop early on the order they expect), the same
// name twice (go-git's lookups take the last, git's the first), and names
// that are not a single path component (empty, ".", "..", or holding a
// "/", which would alias another path).
func checkTree(t *object.Tree) error {
	for i, e := range t.Entries {
		switch {
		case e.Name == "", e.Name == ".", e.Name == "..", strings.ContainsAny(e.Name, "/\x00"):
			return fmt.Errorf("%w: it holds an entry named %q", errMalformedTree, e.Name)
		case i == 0:
			continue
		}
		prev := t.Entries[i-1]
		switch c := compareTreeNames(prev.Name, prev.Mode == filemode.Dir, e.Name, e.Mode == filemode.Dir); {
		case prev.Name == e.Name:
			return fmt.Errorf("%w: it lists %q twice", errMalformedTree, e.Name)
		case c > 0:
			return fmt.Errorf("%w: its entries are not sorted (%q before %q)", errMalformedTree, prev.Name, e.Name)
		}
		if e.Mode == filemode.Dir && hasFileNamed(t.Entries[:i], e.Name) {
			return fmt.Errorf("%w: it lists %q twice", errMalformedTree, e.Name)
		}
	}
	return nil
}

// compareTreeNames orders two tree entries as git does (tree.c,
// base_name_compare): by name, a directory's name followed by "/".
func compareTreeNames(a string, aDir bool, b string, bDir bool) int {
	n := min(len(a), len(b))
	if c := strings.Compare(a[:n], b[:n]); c != 0 {
		return c
	}
	next := func(name string, dir bool) byte {
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

// hasFileNamed reports whether entries, in git's order, end with a run of
// names starting with name that holds name itself: in order, a file and a
// directory of the same name sort apart ("a", "a.b", "a/"), with only such
// names between them.
func hasFileNamed(entries []object.TreeEntry, name string) bool {
	for i := len(entries) - 1; i >= 0 && strings.HasPrefix(entries[i].Name, name); i-- {
		if entries[i].Name == name {
			return true
		}
	}
	return false
}

// findEntry returns the entry at path below tree h (nil when there is
// none), reading each tree on the way with Repo.tree, so that every tree is
// checked.
func (r *Repo) findEntry(h plumbing.Hash, path string) (*object.TreeEntry, error) {
	for {
		t, err := r.tree(h)
		if err != nil {
			return nil, err
		}
		name, rest, deeper := strings.Cut(path, "/")
		var found *object.TreeEntry
		for i := range t.Entries {
			if t.Entries[i].Name == name {
				found = &t.Entries[i]
				break
			}
		}
		if !deeper || found == nil {
			return found, nil
		}
		if found.Mode != filemode.Dir {
			return nil, nil
		}
		h, path = found.Hash, rest
	}
}

// noStorer is the object storage of the trees small-hook decodes: none.
// go-git's Tree reads subtrees through its storage (FindEntry, Files);
// small-hook reads them with findEntry instead, which checks every tree, and
// any other way fails.
type noStorer struct{}

var errNoStorer = errors.New("trees are read with Repo.tree")

func (noStorer) NewEncodedObject() plumbing.EncodedObject { return &plumbing.MemoryObject{} }
func (noStorer) SetEncodedObject(plumbing.EncodedObject) (plumbing.Hash, error) {
	return plumbing.ZeroHash, errNoStorer
}
func (noStorer) EncodedObject(plumbing.ObjectType, plumbing.Hash) (plumbing.EncodedObject, error) {
	return nil, errNoStorer
}
func (noStorer) IterEncodedObjects(plumbing.ObjectType) (storer.EncodedObjectIter, error) {
	return nil, errNoStorer
}
func (noStorer) HasEncodedObject(plumbing.Hash) error           { return errNoStorer }
func (noStorer) EncodedObjectSize(plumbing.Hash) (int64, error) { return 0, errNoStorer }
func (noStorer) AddAlternate(string) error                      { return errNoStorer }
