package agentguard

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
)

// Proposed is the state of a work tree after a write: the files on disk,
// except the one the write changes, which holds what the write would put
// there. It is what the guard judges as the new state (a
// changes.Snapshot): the work tree, not the index, because that is what
// an agent builds its next commit from, file by file, before it stages
// anything. Links are never followed: a link reads as a link, and
// anything that is neither a file nor a link (a directory, a FIFO) reads
// as absent.
type Proposed struct {
	// Root is the work tree's root on disk.
	Root string
	// Path is the written file, slash-separated, relative to Root, and
	// Data what the write puts there.
	Path string
	Data []byte
}

// List returns the files under dir (which ends in "/"), at any depth,
// sorted.
func (p *Proposed) List(dir string) ([]string, error) {
	var out []string
	if strings.HasPrefix(p.Path, dir) {
		out = append(out, p.Path)
	}
	base := filepath.Join(p.Root, filepath.FromSlash(dir))
	err := filepath.WalkDir(base, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && file == base {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" && file != base {
				return fs.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(p.Root, file)
		if err != nil {
			return err
		}
		if rel := filepath.ToSlash(rel); rel != p.Path && (d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}

// Read returns the file at path, or nil when it is absent.
func (p *Proposed) Read(path string) (*changes.Blob, error) {
	if path == p.Path {
		return NewBlob(changes.KindFile, p.Data), nil
	}
	file := filepath.Join(p.Root, filepath.FromSlash(path))
	st, err := os.Lstat(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	case st.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(file)
		if err != nil {
			return nil, err
		}
		return NewBlob(changes.KindSymlink, []byte(filepath.ToSlash(target))), nil
	case !st.Mode().IsRegular():
		return nil, nil
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return NewBlob(changes.KindFile, data), nil
}

// NewBlob returns a version of a file, with the object id git would give
// its content.
func NewBlob(kind changes.Kind, data []byte) *changes.Blob {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return &changes.Blob{Hash: hex.EncodeToString(h.Sum(nil)), Kind: kind, Data: data}
}
