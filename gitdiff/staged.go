package gitdiff

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gitread"
)

// Staged returns the staged change: every in-scope path whose version in
// the commit git would write from the index differs from HEAD's (see
// commitView: what git commits, which a crafted cache tree can make differ
// from the index entries). The index is $GIT_INDEX_FILE when set (git
// points hooks at a temporary index during `git commit -a` and `git commit
// PATHS`), otherwise the work tree's own index. While a merge is in
// progress (MERGE_HEAD), the staged change is that merge, built as Range
// builds a merge commit: every parent's version and the merge base's.
func (r *Repo) Staged(scope Scope) (changes.Unit, error) {
	if r.workTree == "" {
		return changes.Unit{}, errors.New("a bare repository has no staged change: use --base or --all --rev")
	}
	idx, staged, err := r.indexEntries(scope)
	if err != nil {
		return changes.Unit{}, err
	}
	headID, head, err := r.headTree()
	if err != nil {
		return changes.Unit{}, err
	}
	old, now, view, err := r.commitView(head, idx, scope, staged)
	if err != nil {
		return changes.Unit{}, err
	}
	g, err := r.newGovernor(scope)
	if err != nil {
		return changes.Unit{}, err
	}
	us := g.unit(scope)
	u := changes.Unit{Mode: changes.ModeStaged, Files: view, Loader: r.loader()}
	if head != nil {
		u.Before = &treeSnapshot{repo: r, hash: head.hash}
	}
	merging, err := r.mergeHeads()
	if err != nil {
		return changes.Unit{}, err
	}
	if head != nil && len(merging) > 0 {
		u.Changes, err = r.stagedMerge(append([]plumbing.Hash{headID}, merging...), old, now, view, us)
	} else {
		var keep map[string]bool
		keep, err = us.governed(unionPaths(old, now), r.stagedStates(head, view)...)
		if err == nil {
			u.Changes, err = r.diff(only(old, keep), only(now, keep))
		}
	}
	if err != nil {
		return changes.Unit{}, err
	}
	u.Declared = us.declared
	return u, nil
}

// mergeHeads reads the commits being merged into HEAD from MERGE_HEAD
// (one per line; several for an octopus merge), or nil when no merge is
// in progress.
func (r *Repo) mergeHeads() ([]plumbing.Hash, error) {
	data, err := os.ReadFile(filepath.Join(r.gitDir, "MERGE_HEAD"))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading MERGE_HEAD: %w", err)
	}
	var heads []plumbing.Hash
	for _, line := range strings.Fields(string(data)) {
		if !plumbing.IsHash(line) {
			return nil, fmt.Errorf("MERGE_HEAD: %q is not a commit id", line)
		}
		heads = append(heads, plumbing.NewHash(line))
	}
	return heads, nil
}

// stagedMerge builds the changes of the merge being committed: the staged
// result against HEAD and the commits in MERGE_HEAD (parents, HEAD first).
// The paths where the result can differ from a parent are those the index
// changes against HEAD and those another parent holds differently from
// HEAD: the same paths Range compares for the merge commit once it exists.
func (r *Repo) stagedMerge(parents []plumbing.Hash, head, staged entries, view *commitView, scope *unitScope) ([]changes.Change, error) {
	m, err := r.newMerge(parents)
	if err != nil {
		return nil, err
	}
	paths := entries{}
	for _, path := range unionPaths(head, staged) {
		o, inHead := head[path]
		n, inIndex := staged[path]
		if inHead != inIndex || o != n {
			paths[path] = entry{}
		}
	}
	for _, pt := range m.parents[1:] {
		old, now := entries{}, entries{}
		if err := r.diffTrees(m.parents[0].hash, pt.hash, "", scope.Scope, old, now); err != nil {
			return nil, err
		}
		addPaths(paths, old, now)
	}
	candidates, err := m.governed(scope, unionPaths(paths), r.viewState(view))
	if err != nil {
		return nil, err
	}
	return r.mergeChangesOf(m, candidates, view.lookup)
}

// stagedStates are the states whose declarations count for the staged
// change: HEAD's tree (none before the first commit) and what git will
// commit (see commitView).
func (r *Repo) stagedStates(head *treeObject, view *commitView) []declState {
	states := []declState{r.viewState(view)}
	if head != nil {
		states = append(states, r.treeState(head))
	}
	return states
}

// indexEntries reads the in-scope entries of the index, those of the
// directories a sparse index holds as one entry included (from their
// trees, which is what git commits there). Unmerged paths are an error:
// there is no single staged version to check.
func (r *Repo) indexEntries(scope Scope) (*gitread.IndexFile, entries, error) {
	idx, err := r.reader.Index(scope)
	if err != nil {
		return nil, nil, err
	}
	out := entries{}
	for _, e := range idx.Entries {
		if e.Stage != 0 {
			return nil, nil, fmt.Errorf("%s is unmerged: resolve the conflict and stage the result first", e.Path)
		}
		mode, err := filemode.New(fmt.Sprintf("%o", e.Mode))
		if err != nil {
			return nil, nil, fmt.Errorf("index entry %s: %w", e.Path, err)
		}
		out[e.Path] = entry{hash: e.Hash, mode: mode}
	}
	for _, e := range idx.Sparse {
		if scope.Only != nil {
			if err := r.sparseFiles(e, scope.Only, out); err != nil {
				return nil, nil, err
			}
			continue
		}
		t, err := r.tree(e.Hash)
		if err != nil {
			return nil, nil, fmt.Errorf("sparse directory %s of the index: %w", e.Path, err)
		}
		if err := r.walkTree(t, e.Path, scope, out); err != nil {
			return nil, nil, err
		}
	}
	return idx, out, nil
}

// sparseFiles adds to out those of paths that lie in the sparse directory
// entry e, looked up in its tree.
func (r *Repo) sparseFiles(e gitread.IndexEntry, paths []string, out entries) error {
	for _, p := range paths {
		rest, ok := strings.CutPrefix(p, e.Path)
		if !ok {
			continue
		}
		f, found, err := r.findEntry(e.Hash, rest)
		if err != nil {
			return fmt.Errorf("sparse directory %s of the index: %w", e.Path, err)
		}
		if found && f.mode != filemode.Dir {
			out[p] = f
		}
	}
	return nil
}

// headTree is HEAD's commit and tree, or a nil tree when HEAD is unborn
// (the first commit).
func (r *Repo) headTree() (plumbing.Hash, *treeObject, error) {
	h, _, err := r.reader.Head()
	if err != nil || h.IsZero() {
		return plumbing.ZeroHash, nil, err
	}
	t, err := r.commitTree(h)
	return h, t, err
}

func (r *Repo) commitTree(h plumbing.Hash) (*treeObject, error) {
	c, err := r.commit(h)
	if err != nil {
		return nil, err
	}
	return r.tree(c.TreeHash)
}
