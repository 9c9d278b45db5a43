package gitdiff

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/small-hook/small-hook/changes"
)

// Staged returns the staged change: every in-scope path whose index
// version differs from HEAD's. The index is $GIT_INDEX_FILE when set (git
// points hooks at a temporary index during `git commit -a` and `git commit
// PATHS`), otherwise the work tree's own index.
func (r *Repo) Staged(scope Scope) (changes.Unit, error) {
	if r.workTree == "" {
		return changes.Unit{}, errors.New("a bare repository has no staged change: use --base or --all --rev")
	}
	idx, staged, err := r.indexEntries(scope)
	if err != nil {
		return changes.Unit{}, err
	}
	head, err := r.headTree()
	if err != nil {
		return changes.Unit{}, err
	}
	old, err := r.headEntries(head, idx, scope, staged)
	if err != nil {
		return changes.Unit{}, err
	}
	list, err := r.diff(old, staged)
	if err != nil {
		return changes.Unit{}, err
	}
	u := changes.Unit{Mode: changes.ModeStaged, Changes: list, Files: &entriesSnapshot{repo: r, entries: staged}}
	if head != nil {
		u.Before = &treeSnapshot{repo: r, tree: head}
	}
	return u, nil
}

// indexPath is the index file git would use now.
func (r *Repo) indexPath() string {
	if p := r.opts.getenv("GIT_INDEX_FILE"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.workTree, p)
		}
		return p
	}
	return filepath.Join(r.gitDir, "index")
}

// indexEntries reads the in-scope entries of the index. Unmerged paths are
// an error: there is no single staged version to check.
func (r *Repo) indexEntries(scope Scope) (*indexFile, entries, error) {
	idx, err := r.readIndex(scope)
	if err != nil {
		return nil, nil, err
	}
	out := entries{}
	for _, e := range idx.entries {
		if e.stage != 0 {
			return nil, nil, fmt.Errorf("%s is unmerged: resolve the conflict and stage the result first", e.path)
		}
		mode, err := filemode.New(fmt.Sprintf("%o", e.mode))
		if err != nil {
			return nil, nil, fmt.Errorf("index entry %s: %w", e.path, err)
		}
		out[e.path] = entry{hash: e.hash, mode: mode}
	}
	return idx, out, nil
}

// headTree is HEAD's tree, or nil when HEAD is unborn (the first commit).
func (r *Repo) headTree() (*object.Tree, error) {
	ref, err := r.repo.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("resolving HEAD: %w", err)
	}
	return r.commitTree(ref.Hash())
}

func (r *Repo) commitTree(h plumbing.Hash) (*object.Tree, error) {
	c, err := r.repo.CommitObject(h)
	if err != nil {
		return nil, r.objectError("commit", h, err)
	}
	t, err := c.Tree()
	if err != nil {
		return nil, r.objectError("tree of commit", h, err)
	}
	return t, nil
}
