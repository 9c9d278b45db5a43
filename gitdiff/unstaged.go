package gitdiff

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/workspace"
)

// Unstaged lists, sorted, the governed files a staged check does not see:
// those whose work tree version differs from the index's (changed,
// deleted, or not in the index and not ignored, as `git status` shows
// them) and that a declaration governs, in HEAD, in the index or in the
// work tree itself. It asks git only when the index holds a path that
// could be governed (workspace.Candidate): a repository that keeps no
// protocol state pays for no git process. A bare repository has none.
func (r *Repo) Unstaged() ([]string, error) {
	if r.workTree == "" {
		return nil, nil
	}
	_, idx, err := r.indexEntries(Scope{})
	if err != nil || len(idx) == 0 {
		return nil, err
	}
	out, err := r.git.Output("status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=all")
	if err != nil {
		return nil, fmt.Errorf("listing what is not staged: %w", err)
	}
	var candidates []string
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) < 4 || rec[2] != ' ' {
			continue
		}
		p := string(rec[3:])
		if (rec[1] != ' ' || rec[0] == '?') && workspace.Candidate(p) {
			candidates = append(candidates, p)
		}
	}
	if len(candidates) == 0 {
		return nil, nil
	}
	states := []declState{r.entriesState(idx), workTreeState{r}}
	_, head, err := r.headTree()
	if err != nil {
		return nil, err
	}
	if head != nil {
		states = append(states, r.treeState(head))
	}
	g, err := r.newGovernor(Scope{})
	if err != nil {
		return nil, err
	}
	governed, err := g.unit(Scope{}).governedList(candidates, states...)
	if err != nil {
		return nil, err
	}
	slices.Sort(governed)
	return governed, nil
}

// NotInIndex lists those of paths the index does not hold, in their
// order.
func (r *Repo) NotInIndex(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	_, idx, err := r.indexEntries(Scope{All: true})
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range paths {
		if _, ok := idx[p]; !ok {
			out = append(out, p)
		}
	}
	return out, nil
}

// workTreeState is the work tree as a state whose declarations count:
// a marker, a canonical SMALL file or an artifact's frontmatter on disk.
type workTreeState struct {
	repo *Repo
}

func (s workTreeState) declares(x workspace.Declaration, path string) (bool, error) {
	switch {
	case x.Artifact != "":
		files, err := s.repo.WorkTreeFiles(spellings(path, x.Artifact)...)
		if err != nil {
			return false, err
		}
		for _, b := range files {
			if b.Kind == changes.KindFile && workspace.DeclaresArtifact(b.Data) {
				return true, nil
			}
		}
		return false, nil
	case x.Workspace.Kind == workspace.AWP:
		files, err := s.repo.WorkTreeFiles(x.Workspace.Root + workspace.Marker)
		return len(files) > 0, err
	}
	dir := x.Workspace.Dir()
	names, err := os.ReadDir(filepath.Join(s.repo.workTree, filepath.FromSlash(dir)))
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading %s in the work tree: %w", dir, err)
	}
	for _, n := range names {
		if d, ok := workspace.DeclaredBy(dir + n.Name()); ok && d == x && !n.IsDir() {
			return true, nil
		}
	}
	return false, nil
}
