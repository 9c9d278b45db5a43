package gitdiff

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/small-hook/small-hook/internal/changes"
)

// tree reads a tree object, once per unit (see Range), and refuses one
// that git reads otherwise than go-git (see checkTree).
func (r *Repo) tree(h plumbing.Hash) (*object.Tree, error) {
	t, _, err := r.optionalTreeObject(h)
	return t, err
}

// optionalTreeObject is tree that reports a tree the repository does not
// hold as absent (found false) rather than as an error.
func (r *Repo) optionalTreeObject(h plumbing.Hash) (t *object.Tree, found bool, err error) {
	if t, ok := r.trees[h]; ok {
		return t, true, nil
	}
	kind, data, _, err := r.reader.Object(h, -1)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, false, r.objectError("tree", h, err)
	}
	if err == nil && kind != plumbing.TreeObject {
		err = fmt.Errorf("a %s, not a tree", kind)
	}
	if err != nil {
		return nil, true, r.objectError("tree", h, err)
	}
	t, err = object.DecodeTree(noStorer{}, &storedObject{hash: h, kind: kind, data: data})
	if err == nil {
		err = checkTree(t)
	}
	if err != nil {
		return nil, true, fmt.Errorf("tree %s: %w", h, err)
	}
	r.trees[h] = t
	return t, true, nil
}

// walkTree adds every in-scope file of tree to out, its paths under
// prefix. Workspaces can be nested at any depth, so the whole tree is
// walked: this is for checks of a whole tree (--all), not for hooks.
func (r *Repo) walkTree(t *object.Tree, prefix string, scope Scope, out entries) error {
	for _, e := range t.Entries {
		path := prefix + e.Name
		if e.Mode == filemode.Dir {
			sub, err := r.tree(e.Hash)
			if err != nil {
				return err
			}
			if err := r.walkTree(sub, path+"/", scope, out); err != nil {
				return err
			}
			continue
		}
		if scope.ContainsPath(path) {
			out[path] = entry{hash: e.Hash, mode: e.Mode}
		}
	}
	return nil
}

// diffTrees adds to old and new the in-scope files that differ between
// trees a and b (ZeroHash for none), descending only into subtrees whose
// object ids differ: the cost follows the size of the change, not of the
// tree, wherever workspaces are nested.
func (r *Repo) diffTrees(a, b plumbing.Hash, prefix string, scope Scope, old, new entries) error {
	if a == b {
		return nil
	}
	ta, err := r.optionalTree(a)
	if err != nil {
		return err
	}
	tb, err := r.optionalTree(b)
	if err != nil {
		return err
	}
	byName := func(t *object.Tree) map[string]object.TreeEntry {
		m := map[string]object.TreeEntry{}
		if t != nil {
			for _, e := range t.Entries {
				m[e.Name] = e
			}
		}
		return m
	}
	ea, eb := byName(ta), byName(tb)
	names := map[string]bool{}
	for n := range ea {
		names[n] = true
	}
	for n := range eb {
		names[n] = true
	}
	for name := range names {
		x, inA := ea[name]
		y, inB := eb[name]
		if inA && inB && x.Hash == y.Hash && x.Mode == y.Mode {
			continue
		}
		path := prefix + name
		var subA, subB plumbing.Hash
		if inA {
			if x.Mode == filemode.Dir {
				subA = x.Hash
			} else if scope.ContainsPath(path) {
				old[path] = entry{hash: x.Hash, mode: x.Mode}
			}
		}
		if inB {
			if y.Mode == filemode.Dir {
				subB = y.Hash
			} else if scope.ContainsPath(path) {
				new[path] = entry{hash: y.Hash, mode: y.Mode}
			}
		}
		if !subA.IsZero() || !subB.IsZero() {
			if err := r.diffTrees(subA, subB, path+"/", scope, old, new); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *Repo) optionalTree(h plumbing.Hash) (*object.Tree, error) {
	if h.IsZero() {
		return nil, nil
	}
	return r.tree(h)
}

// entriesSnapshot is a state held as a map of in-scope entries: the index,
// or a whole tree.
type entriesSnapshot struct {
	repo    *Repo
	entries entries
	// sorted holds the paths in order, built on the first List: a
	// directory's paths are then found by binary search, so that listing
	// every workspace of a large index costs no more than sorting it once.
	sorted []string
}

func (s *entriesSnapshot) List(dir string) ([]string, error) {
	if s.sorted == nil {
		s.sorted = unionPaths(s.entries)
	}
	found := under(s.sorted, dir)
	if len(found) == 0 {
		return nil, nil
	}
	return slices.Clone(found), nil
}

func (s *entriesSnapshot) Read(path string) (*changes.Blob, error) {
	e, ok := s.entries[path]
	if !ok {
		return nil, nil
	}
	return s.repo.blob(e)
}

// treeSnapshot is the state of a commit, read from its tree on demand by
// repo: the Repo of the goroutine that checks the unit, which need not be
// the one that built it (see Range).
type treeSnapshot struct {
	repo *Repo
	hash plumbing.Hash
	tree *object.Tree // read on first use
}

func (s *treeSnapshot) find(path string) (*object.TreeEntry, error) {
	e, err := s.repo.findEntry(s.hash, path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	return e, nil
}

func (s *treeSnapshot) List(dir string) ([]string, error) {
	e, err := s.find(strings.TrimSuffix(dir, "/"))
	if err != nil || e == nil || e.Mode != filemode.Dir {
		return nil, err
	}
	sub, err := s.repo.tree(e.Hash)
	if err != nil {
		return nil, err
	}
	found := entries{}
	if err := s.repo.walkTree(sub, dir, Scope{All: true}, found); err != nil {
		return nil, err
	}
	return unionPaths(found), nil
}

func (s *treeSnapshot) Read(path string) (*changes.Blob, error) {
	e, err := s.find(path)
	if err != nil || e == nil || e.Mode == filemode.Dir {
		return nil, err
	}
	return s.repo.blob(entry{hash: e.Hash, mode: e.Mode})
}
