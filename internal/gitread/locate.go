package gitread

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// location is where a repository keeps its files.
type location struct {
	// gitDir is the work tree's own git directory: HEAD, the index and the
	// per-worktree refs (a linked worktree's .git/worktrees/<name>).
	gitDir string
	// commonDir is the directory the worktrees share (objects, refs,
	// config, hooks); "" when gitDir is the common directory.
	commonDir string
	workTree  string // "" when bare
}

// locate finds the repository that contains dir from the files, as git
// finds it (setup.c): GIT_DIR (a git directory or a gitfile) with
// GIT_WORK_TREE or the working directory as the work tree; else, from dir
// upwards, a .git directory, a .git file naming the git directory (a
// linked worktree, a submodule) or a bare repository, with GIT_WORK_TREE
// as the work tree when it is set. A git directory is one git accepts
// (is_git_directory): HEAD in it, objects and refs in its common
// directory. An error says where the files did not settle it as plainly as
// that (a directory git would step over, a discovery GIT_CEILING_DIRECTORIES
// bounds, no repository at all): Open then asks git, which decides.
func locate(dir string, opts Options) (location, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return location{}, fmt.Errorf("resolving %s: %w", dir, err)
	}
	if gd := opts.Env("GIT_DIR"); gd != "" {
		return fromGitDirEnv(abs, gd, opts.Env("GIT_WORK_TREE"))
	}
	if opts.Env("GIT_CEILING_DIRECTORIES") != "" {
		return location{}, errors.New("GIT_CEILING_DIRECTORIES bounds where git looks for the repository")
	}
	loc, err := discover(abs)
	if err != nil {
		return location{}, err
	}
	if wt := opts.Env("GIT_WORK_TREE"); wt != "" {
		loc.workTree = absFrom(abs, wt)
	}
	return loc, nil
}

// discover looks for the repository from dir upwards.
func discover(dir string) (location, error) {
	for d := dir; ; {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			gitDir := dotgit
			if !fi.IsDir() {
				if gitDir, err = readGitFile(dotgit); err != nil {
					return location{}, err
				}
			}
			common, err := gitDirAt(gitDir)
			if err != nil {
				return location{}, err
			}
			return location{gitDir: gitDir, commonDir: common, workTree: d}, nil
		}
		if common, err := gitDirAt(d); err == nil {
			return location{gitDir: d, commonDir: common}, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return location{}, fmt.Errorf("%s is not inside a git repository", dir)
		}
		d = parent
	}
}

// fromGitDirEnv is the repository GIT_DIR=gd names, with GIT_WORK_TREE=wt
// (or the working directory cwd) as its work tree. As for git, gd may be a
// gitfile ("gitdir: PATH"), and relative names are taken from cwd.
func fromGitDirEnv(cwd, gd, wt string) (location, error) {
	gd = absFrom(cwd, gd)
	if fi, err := os.Stat(gd); err == nil && !fi.IsDir() {
		if gd, err = readGitFile(gd); err != nil {
			return location{}, err
		}
	}
	common, err := gitDirAt(gd)
	if err != nil {
		return location{}, fmt.Errorf("GIT_DIR=%s: %w", gd, err)
	}
	loc := location{gitDir: gd, commonDir: common, workTree: cwd}
	if wt != "" {
		loc.workTree = absFrom(cwd, wt)
	}
	return loc, nil
}

// absFrom is path made absolute from dir.
func absFrom(dir, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(dir, path)
}

// gitDirAt checks that d is a git directory as git's is_git_directory
// decides — HEAD in d, objects and refs in its common directory — and
// returns the common directory ("" when it is d itself).
func gitDirAt(d string) (string, error) {
	if _, err := os.Stat(filepath.Join(d, "HEAD")); err != nil {
		return "", fmt.Errorf("%s is not a git directory: no HEAD", d)
	}
	common, err := commonDir(d)
	if err != nil {
		return "", err
	}
	shared := d
	if common != "" {
		shared = common
	}
	for _, name := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(shared, name)); err != nil || !fi.IsDir() {
			return "", fmt.Errorf("%s is not a git directory: no %s", d, filepath.Join(shared, name))
		}
	}
	return common, nil
}

// readGitFile follows a ".git" file ("gitdir: PATH") to the git directory.
func readGitFile(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	line, _, _ := bytes.Cut(data, []byte("\n"))
	target, ok := strings.CutPrefix(strings.TrimSpace(string(line)), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: not a gitdir file", path)
	}
	return absFrom(filepath.Dir(path), strings.TrimSpace(target)), nil
}

// commonDir returns the common directory of a linked worktree's git
// directory (its commondir file, relative to it), or "" when gitDir is
// itself the common directory.
func commonDir(gitDir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s/commondir: %w", gitDir, err)
	}
	return absFrom(gitDir, strings.TrimSpace(string(data))), nil
}

// objectsDir is where the repository at loc keeps its objects.
func (loc location) objectsDir() string {
	return filepath.Join(loc.shared(), "objects")
}

// shared is the directory the worktrees of the repository at loc share.
func (loc location) shared() string {
	if loc.commonDir != "" {
		return loc.commonDir
	}
	return loc.gitDir
}

// indexPathOf is the index file of the repository at loc: GIT_INDEX_FILE
// (relative to the work tree's root, where git runs hooks) or the git
// directory's index.
func indexPathOf(loc location, opts Options) string {
	if p := opts.Env("GIT_INDEX_FILE"); p != "" {
		if !filepath.IsAbs(p) {
			p = filepath.Join(loc.workTree, p)
		}
		return p
	}
	return filepath.Join(loc.gitDir, "index")
}
