package gitdiff

import (
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gitread"
)

// commitView is the in-scope state `git commit` would commit from the
// index. git writes a commit's tree from the index's cache tree
// (cache-tree.c, update_one): a directory whose cache-tree node is valid
// (and whose tree object exists) is committed as that tree, whatever the
// index entries below it say; elsewhere the entries are committed. So the
// view is the index's in-scope entries outside such directories, and the
// trees of those directories. A staged check judges this view, never the
// entries alone: an index whose valid cache tree names another tree than
// its entries would otherwise commit files the check never saw.
type commitView struct {
	repo *Repo
	// files are the in-scope index entries git commits as entries, sorted
	// by path: a file is found, and what lies under a directory listed, by
	// binary search (listing every workspace of a large change is not
	// quadratic), and a staged commit of 60,000 files keeps 40 bytes a
	// file here, not a map's slots twice that size.
	files []viewFile
	// trees maps a directory ("" for the root, else ending in "/") to the
	// tree git commits there whole.
	trees map[string]plumbing.Hash
	scope Scope
	// index holds the trees' directories sorted, built on first use.
	index     sync.Once
	treeNames []string
}

// viewFile is an index entry git commits as an entry, at its path.
type viewFile struct {
	path  string
	entry entry
}

// commitView computes what git would commit from idx (whose in-scope
// entries are staged) and the in-scope changes it makes to head's tree: old
// holds HEAD's versions and now the committed ones, of every in-scope path
// outside the directories committed as trees, and of the paths that differ
// inside them. A directory committed as HEAD's own tree is not read at all:
// a hook's cost follows the directories the index changes.
func (r *Repo) commitView(head *treeObject, idx *gitread.IndexFile, scope Scope, staged entries) (old, now entries, view *commitView, err error) {
	old, now = entries{}, entries{}
	view = &commitView{repo: r, trees: map[string]plumbing.Hash{}, scope: scope}
	sparse := map[string]plumbing.Hash{}
	for _, e := range idx.Sparse {
		sparse[e.Path] = e.Hash
	}
	var headHash plumbing.Hash
	if head != nil {
		headHash = head.hash
	}
	var walk func(prefix string, h plumbing.Hash, node *gitread.CacheTree) error
	walk = func(prefix string, h plumbing.Hash, node *gitread.CacheTree) error {
		whole, ok := plumbing.ZeroHash, false
		if node != nil && node.Valid && (prefix == "" || node.Entries > 0) {
			whole, ok = node.Hash, true
		} else if sh, isSparse := sparse[prefix]; isSparse {
			whole, ok = sh, true
		}
		if ok && whole == h {
			view.trees[prefix] = h
			return nil
		}
		if ok {
			exists, err := r.hasTree(whole)
			if err != nil {
				return err
			}
			if exists {
				view.trees[prefix] = whole
				return r.diffTrees(h, whole, prefix, scope, old, now)
			}
		}
		seen := map[string]bool{}
		if !h.IsZero() {
			t, err := r.tree(h)
			if err != nil {
				return err
			}
			for e := range t.all() {
				name := string(e.name)
				path := prefix + name
				if !e.isDir() {
					if scope.ContainsPath(path) {
						old[path] = e.entry
					}
					continue
				}
				seen[name] = true
				if err := walk(path+"/", e.hash, node.Child(name)); err != nil {
					return err
				}
			}
		}
		var names []string
		if node != nil {
			names = slices.Collect(maps.Keys(node.Children))
		}
		for p := range sparse {
			if rest, ok := strings.CutPrefix(p, prefix); ok && strings.Count(rest, "/") == 1 {
				names = append(names, strings.TrimSuffix(rest, "/"))
			}
		}
		sort.Strings(names)
		for _, name := range slices.Compact(names) {
			if !seen[name] {
				if err := walk(prefix+name+"/", plumbing.ZeroHash, node.Child(name)); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk("", headHash, idx.Tree); err != nil {
		return nil, nil, nil, err
	}
	for path, e := range staged {
		if _, under := view.treeOf(path); !under {
			view.files = append(view.files, viewFile{path, e})
			now[path] = e
		}
	}
	slices.SortFunc(view.files, func(a, b viewFile) int { return strings.Compare(a.path, b.path) })
	return old, now, view, nil
}

// hasTree reports whether the repository holds tree h, as git asks before
// it takes a valid cache-tree node's tree.
func (r *Repo) hasTree(h plumbing.Hash) (bool, error) {
	_, found, err := r.optionalTreeObject(h)
	if !found {
		return false, nil
	}
	return err == nil, err
}

// treeOf returns the directory committed as a tree that holds path, if any.
func (v *commitView) treeOf(path string) (string, bool) {
	if _, ok := v.trees[""]; ok {
		return "", true
	}
	for i := 0; i < len(path); i++ {
		if path[i] == '/' {
			if _, ok := v.trees[path[:i+1]]; ok {
				return path[:i+1], true
			}
		}
	}
	return "", false
}

// lookup returns the committed entry at path, or nil.
func (v *commitView) lookup(path string) (*entry, error) {
	dir, under := v.treeOf(path)
	if !under {
		i, ok := v.find(path)
		if !ok {
			return nil, nil
		}
		e := v.files[i].entry
		return &e, nil
	}
	e, ok, err := v.repo.findEntry(v.trees[dir], path[len(dir):])
	if err != nil || !ok || e.mode == filemode.Dir {
		return nil, err
	}
	return &e, nil
}

// List returns the in-scope files under dir, from the entries and from the
// trees committed whole.
func (v *commitView) List(dir string) ([]string, error) {
	v.index.Do(func() {
		v.treeNames = slices.Sorted(maps.Keys(v.trees))
	})
	found := entries{}
	i, _ := v.find(dir)
	for ; i < len(v.files) && strings.HasPrefix(v.files[i].path, dir); i++ {
		found[v.files[i].path] = v.files[i].entry
	}
	// The trees at or below dir are committed whole under it; a tree above
	// dir holds it as a subtree, if at all.
	type listed struct {
		sub    plumbing.Hash
		prefix string
	}
	var trees []listed
	for _, d := range under(v.treeNames, dir) {
		trees = append(trees, listed{v.trees[d], d})
	}
	for _, d := range ancestors(dir) {
		h, ok := v.trees[d]
		if !ok {
			continue
		}
		e, ok, err := v.repo.findEntry(h, strings.TrimSuffix(dir[len(d):], "/"))
		if err != nil {
			return nil, err
		}
		if ok && e.mode == filemode.Dir {
			trees = append(trees, listed{e.hash, dir})
		}
	}
	for _, l := range trees {
		t, err := v.repo.tree(l.sub)
		if err != nil {
			return nil, err
		}
		if err := v.repo.walkTree(t, l.prefix, v.scope, found); err != nil {
			return nil, err
		}
	}
	return unionPaths(found), nil
}

// find returns where path is among the files, or would be.
func (v *commitView) find(path string) (int, bool) {
	return slices.BinarySearchFunc(v.files, path, func(f viewFile, path string) int { return strings.Compare(f.path, path) })
}

// under returns the strings of sorted that start with prefix.
func under(sorted []string, prefix string) []string {
	i, _ := slices.BinarySearch(sorted, prefix)
	j := i
	for j < len(sorted) && strings.HasPrefix(sorted[j], prefix) {
		j++
	}
	return sorted[i:j]
}

// ancestors returns the directories ("" for the root, else ending in "/")
// that strictly contain dir, itself a directory ending in "/" (or "").
func ancestors(dir string) []string {
	if dir == "" {
		return nil
	}
	out := []string{""}
	for i := 0; i < len(dir)-1; i++ {
		if dir[i] == '/' {
			out = append(out, dir[:i+1])
		}
	}
	return out
}

// Read returns the committed version of the file at path.
func (v *commitView) Read(path string) (*changes.Blob, error) {
	e, err := v.lookup(path)
	if err != nil || e == nil {
		return nil, err
	}
	return v.repo.content(*e)
}
