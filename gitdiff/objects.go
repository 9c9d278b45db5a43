package gitdiff

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// entry is one in-scope file of a tree or of the index: its object and mode.
type entry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// entries maps a path to its entry.
type entries map[string]entry

// blob reads the object of e as a Blob, once per run.
func (r *Repo) blob(e entry) (*Blob, error) {
	key := e.hash.String() + " " + e.mode.String()
	if b, ok := r.blobs[key]; ok {
		return b, nil
	}
	b := &Blob{Hash: e.hash.String(), Kind: KindFile}
	switch e.mode {
	case filemode.Submodule:
		b.Kind = KindSubmodule
	case filemode.Symlink:
		b.Kind = KindSymlink
		fallthrough
	default:
		data, err := r.readBlob(e.hash)
		if err != nil {
			return nil, err
		}
		b.Data = data
	}
	r.blobs[key] = b
	return b, nil
}

func (r *Repo) readBlob(h plumbing.Hash) ([]byte, error) {
	if data, ok, err := r.readLoose(h); ok || err != nil {
		return data, err
	}
	obj, err := r.repo.BlobObject(h)
	if err != nil {
		return nil, r.objectError("blob", h, err)
	}
	rd, err := obj.Reader()
	if err != nil {
		return nil, fmt.Errorf("reading blob %s: %w", h, err)
	}
	defer rd.Close()
	data, err := io.ReadAll(rd)
	if err != nil {
		return nil, fmt.Errorf("reading blob %s: %w", h, err)
	}
	return data, nil
}

// objectError explains a missing object; in a shallow clone that is a sign
// of missing history.
func (r *Repo) objectError(kind string, h plumbing.Hash, err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) && r.isShallow() {
		return fmt.Errorf("%s %s is missing: %w", kind, h, ErrShallow)
	}
	return fmt.Errorf("reading %s %s: %w", kind, h, err)
}

func (r *Repo) isShallow() bool {
	shallow, err := r.storage.Shallow()
	return err == nil && len(shallow) > 0
}

// treeEntries lists the in-scope files of a tree, walking only the
// subtrees of the scope's prefixes. A nil tree has none.
func (r *Repo) treeEntries(tree *object.Tree, scope Scope) (entries, error) {
	out := entries{}
	if tree == nil {
		return out, nil
	}
	if scope.All {
		return out, r.walk(tree, "", out)
	}
	for _, prefix := range scope.Prefixes {
		dir := strings.TrimSuffix(prefix, "/")
		e, err := tree.FindEntry(dir)
		if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", dir, err)
		}
		if e.Mode != filemode.Dir {
			continue
		}
		sub, err := r.repo.TreeObject(e.Hash)
		if err != nil {
			return nil, r.objectError("tree", e.Hash, err)
		}
		if err := r.walk(sub, prefix, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (r *Repo) walk(tree *object.Tree, prefix string, out entries) error {
	for _, e := range tree.Entries {
		path := prefix + e.Name
		if e.Mode == filemode.Dir {
			sub, err := r.repo.TreeObject(e.Hash)
			if err != nil {
				return r.objectError("tree", e.Hash, err)
			}
			if err := r.walk(sub, path+"/", out); err != nil {
				return err
			}
			continue
		}
		out[path] = entry{hash: e.Hash, mode: e.Mode}
	}
	return nil
}

// diff returns the changes between two sets of entries, sorted by path.
func (r *Repo) diff(old, new entries) ([]Change, error) {
	var changes []Change
	for _, path := range unionPaths(old, new) {
		o, hadOld := old[path]
		n, hasNew := new[path]
		if hadOld && hasNew && o == n {
			continue
		}
		ch := Change{Path: path}
		var err error
		if hadOld {
			if ch.Old, err = r.blob(o); err != nil {
				return nil, err
			}
		}
		if hasNew {
			if ch.New, err = r.blob(n); err != nil {
				return nil, err
			}
		}
		changes = append(changes, ch)
	}
	return changes, nil
}

func unionPaths(sets ...entries) []string {
	seen := map[string]bool{}
	var paths []string
	for _, s := range sets {
		for p := range s {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
	}
	sort.Strings(paths)
	return paths
}

// snapshot is the new state of a unit: in-scope entries, read lazily.
type snapshot struct {
	repo    *Repo
	entries entries
}

func (s *snapshot) Paths() []string { return unionPaths(s.entries) }

func (s *snapshot) Read(path string) (*Blob, error) {
	e, ok := s.entries[path]
	if !ok {
		return nil, nil
	}
	return s.repo.blob(e)
}
