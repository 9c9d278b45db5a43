package gitdiff

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/internal/changes"
)

// WorkTreeFiles returns a few files as they stand in the work tree, each
// as the blob `git add` would store for it (a symbolic link holds its
// target); a file the work tree does not hold, and a directory, are
// missing from the map. A bare repository holds none.
func (r *Repo) WorkTreeFiles(paths ...string) (map[string]*changes.Blob, error) {
	out := map[string]*changes.Blob{}
	if r.workTree == "" {
		return out, nil
	}
	for _, p := range paths {
		full := filepath.Join(r.workTree, filepath.FromSlash(p))
		info, err := os.Lstat(full)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s in the work tree: %w", p, err)
		}
		b := &changes.Blob{Kind: changes.KindFile}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(full)
			if err != nil {
				return nil, fmt.Errorf("reading %s in the work tree: %w", p, err)
			}
			b.Kind, b.Data = changes.KindSymlink, []byte(filepath.ToSlash(target))
		case info.Mode().IsRegular():
			if b.Data, err = os.ReadFile(full); err != nil {
				return nil, fmt.Errorf("reading %s in the work tree: %w", p, err)
			}
		default:
			continue
		}
		b.Hash = plumbing.ComputeHash(plumbing.BlobObject, b.Data).String()
		out[p] = b
	}
	return out, nil
}
