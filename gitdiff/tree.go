package gitdiff

import (
	"errors"
	"fmt"

	"github.com/small-hook/small-hook/internal/changes"
)

// Tree returns every in-scope file as it stands in the index (rev "") or
// at a revision, each as a change with no old side.
func (r *Repo) Tree(rev string, scope Scope) (changes.Unit, error) {
	var files entries
	var err error
	if rev == "" {
		if r.workTree == "" {
			return changes.Unit{}, fmt.Errorf("a bare repository has no index: name a revision with --rev")
		}
		_, files, err = r.indexEntries(scope)
	} else {
		files, err = r.revEntries(rev, scope)
	}
	if err != nil {
		return changes.Unit{}, err
	}
	return r.treeUnit(files, files, scope)
}

// treeUnit is the tree-mode unit of the named files among files (a whole
// tree or index): those a declaration in files governs.
func (r *Repo) treeUnit(named, files entries, scope Scope) (changes.Unit, error) {
	g, err := r.newGovernor(scope)
	if err != nil {
		return changes.Unit{}, err
	}
	us := g.unit(scope)
	keep, err := us.governed(unionPaths(named), r.entriesState(files))
	if err != nil {
		return changes.Unit{}, err
	}
	list, err := r.diff(entries{}, only(named, keep))
	if err != nil {
		return changes.Unit{}, err
	}
	return changes.Unit{Mode: changes.ModeTree, Changes: list, Files: &entriesSnapshot{repo: r, entries: files}, Declared: us.declared, Loader: r.loader()}, nil
}

// IndexTree returns the in-scope files among paths as the index holds them,
// each as a change with no old side (tree mode), for files named on the
// command line (the pre-commit framework's --all-files and --files runs).
// Its Files reads every in-scope file of the index, so that rules across
// files see whole workspaces. Paths the index does not hold are left out.
func (r *Repo) IndexTree(paths []string, scope Scope) (changes.Unit, error) {
	if r.workTree == "" {
		return changes.Unit{}, errors.New("a bare repository has no index")
	}
	_, files, err := r.indexEntries(scope)
	if err != nil {
		return changes.Unit{}, err
	}
	named := entries{}
	for _, p := range paths {
		if e, ok := files[p]; ok {
			named[p] = e
		}
	}
	return r.treeUnit(named, files, scope)
}

func (r *Repo) revEntries(rev string, scope Scope) (entries, error) {
	h, err := r.resolve(rev)
	if err != nil {
		return nil, err
	}
	tree, err := r.commitTree(h)
	if err != nil {
		return nil, err
	}
	out := entries{}
	return out, r.walkTree(tree, "", scope, out)
}

// IndexFiles returns the staged versions of a few files, read in one pass
// over the index; a file the index does not hold is missing from the map.
func (r *Repo) IndexFiles(paths ...string) (map[string]*changes.Blob, error) {
	out := map[string]*changes.Blob{}
	if r.workTree == "" || len(paths) == 0 {
		return out, nil
	}
	_, files, err := r.indexEntries(Scope{Only: paths})
	if err != nil {
		return nil, err
	}
	for _, p := range paths {
		b, err := r.fileOf(files, p)
		if err != nil {
			return nil, err
		}
		if b != nil {
			out[p] = b
		}
	}
	return out, nil
}

// RevFiles returns a few files as they stand at a revision; a file the
// revision does not hold is missing from the map.
func (r *Repo) RevFiles(rev string, paths ...string) (map[string]*changes.Blob, error) {
	h, err := r.resolve(rev)
	if err != nil {
		return nil, err
	}
	tree, err := r.commitTree(h)
	if err != nil {
		return nil, err
	}
	out := map[string]*changes.Blob{}
	for _, p := range paths {
		f, ok, err := r.findEntry(tree.hash, p)
		if err != nil {
			return nil, fmt.Errorf("reading %s at %s: %w", p, rev, err)
		}
		if !ok {
			continue
		}
		b, err := r.fileOf(entries{p: f}, p)
		if err != nil {
			return nil, err
		}
		if b != nil {
			out[p] = b
		}
	}
	return out, nil
}

func (r *Repo) fileOf(files entries, path string) (*changes.Blob, error) {
	e, ok := files[path]
	if !ok || !e.mode.IsFile() {
		return nil, nil
	}
	return r.blob(e)
}
