package gitdiff

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/small-hook/small-hook/internal/changes"
)

// tree reads a tree object, once per unit (see Range), and refuses one
// that git reads otherwise than go-git (see checkTree).
func (r *Repo) tree(h plumbing.Hash) (*treeObject, error) {
	t, _, err := r.optionalTreeObject(h)
	return t, err
}

// nextUnitTrees starts the tree cache of the next unit of a range: the
// trees the last unit read stay (a commit's tree is its child's parent
// tree), the ones before go, so that a long history keeps the trees of
// two units, not every tree it met.
func (r *Repo) nextUnitTrees() {
	r.lastTrees, r.trees = r.trees, map[plumbing.Hash]*treeObject{}
}

// optionalTreeObject is tree that reports a tree the repository does not
// hold as absent (found false) rather than as an error.
func (r *Repo) optionalTreeObject(h plumbing.Hash) (t *treeObject, found bool, err error) {
	if t, ok := r.trees[h]; ok {
		return t, true, nil
	}
	if t, ok := r.lastTrees[h]; ok {
		r.trees[h] = t
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
	starts, err := checkTree(data)
	if err != nil {
		return nil, true, fmt.Errorf("tree %s: %w", h, err)
	}
	t = &treeObject{hash: h, data: data, starts: starts}
	r.trees[h] = t
	return t, true, nil
}

// walkTree adds every in-scope file of tree to out, its paths under
// prefix. Workspaces can be nested at any depth, so the whole tree is
// walked: this is for checks of a whole tree (--all), not for hooks.
func (r *Repo) walkTree(t *treeObject, prefix string, scope Scope, out entries) error {
	for e := range t.all() {
		path := prefix + string(e.name)
		if e.isDir() {
			sub, err := r.tree(e.hash)
			if err != nil {
				return err
			}
			if err := r.walkTree(sub, path+"/", scope, out); err != nil {
				return err
			}
			continue
		}
		if scope.ContainsPath(path) {
			out[path] = e.entry
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
	return eachChange(ta, tb, func(x, y *treeEntry) error {
		return r.diffEntries(x, y, prefix, scope, old, new)
	})
}

// eachChange calls fn, in git's order, with the entries of each name that
// differ between trees a and b (nil for none), x from a and y from b (nil
// where a tree has none of that name). Where both trees are read, only the
// entries between the bytes they share at either end are walked (see
// unchangedEnds), in place: fn sees what differs, and nothing allocates
// per entry.
func eachChange(a, b *treeObject, fn func(x, y *treeEntry) error) error {
	ca, cb := a.cursor(), b.cursor()
	if a != nil && b != nil {
		head, tailA, tailB := unchangedEnds(a, b)
		ca, cb = a.between(head, tailA), b.between(head, tailB)
	}
	// Both trees are in git's order (checkTree): walk them side by side. A
	// name that is a file on one side and a directory on the other sorts
	// apart, and is met as two names, each on one side.
	x, hasX := ca.next()
	y, hasY := cb.next()
	for hasX || hasY {
		var c int
		switch {
		case !hasX:
			c = 1
		case !hasY:
			c = -1
		default:
			c = compareTreeNames(x.name, x.isDir(), y.name, y.isDir())
		}
		var err error
		switch {
		case c < 0:
			err = fn(&x, nil)
			x, hasX = ca.next()
		case c > 0:
			err = fn(nil, &y)
			y, hasY = cb.next()
		default:
			if x.entry != y.entry {
				err = fn(&x, &y)
			}
			x, hasX = ca.next()
			y, hasY = cb.next()
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// diffEntries adds to old and new what differs between x and y, the
// entries of one name in two trees (nil where a tree has none).
func (r *Repo) diffEntries(x, y *treeEntry, prefix string, scope Scope, old, new entries) error {
	name := x
	if name == nil {
		name = y
	}
	path := prefix + string(name.name)
	var subA, subB plumbing.Hash
	if x != nil {
		if x.isDir() {
			subA = x.hash
		} else if scope.ContainsPath(path) {
			old[path] = x.entry
		}
	}
	if y != nil {
		if y.isDir() {
			subB = y.hash
		} else if scope.ContainsPath(path) {
			new[path] = y.entry
		}
	}
	if subA.IsZero() && subB.IsZero() {
		return nil
	}
	return r.diffTrees(subA, subB, path+"/", scope, old, new)
}

func (r *Repo) optionalTree(h plumbing.Hash) (*treeObject, error) {
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
	return s.repo.content(e)
}

// treeSnapshot is the state of a commit, read from its tree on demand by
// repo: the Repo of the goroutine that checks the unit, which need not be
// the one that built it (see Range).
type treeSnapshot struct {
	repo *Repo
	hash plumbing.Hash
}

func (s *treeSnapshot) find(path string) (entry, bool, error) {
	e, ok, err := s.repo.findEntry(s.hash, path)
	if err != nil {
		return entry{}, false, fmt.Errorf("reading %s: %w", path, err)
	}
	return e, ok, nil
}

func (s *treeSnapshot) List(dir string) ([]string, error) {
	e, ok, err := s.find(strings.TrimSuffix(dir, "/"))
	if err != nil || !ok || e.mode != filemode.Dir {
		return nil, err
	}
	sub, err := s.repo.tree(e.hash)
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
	e, ok, err := s.find(path)
	if err != nil || !ok || e.mode == filemode.Dir {
		return nil, err
	}
	return s.repo.content(e)
}
