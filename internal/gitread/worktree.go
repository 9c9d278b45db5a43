package gitread

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// worktreeFiles is the files of a linked worktree's repository as git
// places them: go-git's RepositoryFilesystem keeps HEAD, the index and the
// other files of the worktree in its own git directory and sends the rest
// to the common directory, refs included; worktreeFiles also keeps the
// per-worktree refs (refs/bisect/, refs/worktree/, refs/rewritten/) in the
// worktree's directory, where git reads them (refs/files-backend.c), so
// that a HEAD naming one reads what git reads. Only Open and Stat, which
// reading a ref uses, are routed here; nothing writes through it.
type worktreeFiles struct {
	billy.Filesystem
	own billy.Filesystem
}

// newWorktreeFiles returns the files of the linked worktree whose git
// directory is gitDir and whose common directory is commonDir.
func newWorktreeFiles(gitDir, commonDir string) billy.Filesystem {
	own := osfs.New(gitDir)
	return worktreeFiles{Filesystem: dotgit.NewRepositoryFilesystem(own, osfs.New(commonDir)), own: own}
}

func (w worktreeFiles) route(path string) billy.Filesystem {
	if perWorktreeRef(filepath.ToSlash(filepath.Clean(path))) {
		return w.own
	}
	return w.Filesystem
}

func (w worktreeFiles) Open(path string) (billy.File, error) { return w.route(path).Open(path) }

func (w worktreeFiles) Stat(path string) (os.FileInfo, error) { return w.route(path).Stat(path) }

// perWorktreeRef reports whether git keeps the ref name apart for each
// worktree (refs.c, is_per_worktree_ref).
func perWorktreeRef(name string) bool {
	for _, prefix := range []string{"refs/bisect/", "refs/worktree/", "refs/rewritten/"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// probeWorktreeConfig says what of the worktree's own configuration file
// (config.worktree, which git reads when extensions.worktreeConfig is set:
// `git sparse-checkout` sets it) the fast reader does not follow, as
// probeConfig does for the shared one; there core.worktree and core.bare
// count in a linked worktree too.
func probeWorktreeConfig(cfg *config.Config, loc location) (string, error) {
	if cfg.Raw == nil || !cfg.Raw.Section("extensions").HasOption("worktreeConfig") {
		return "", nil
	}
	// A key without a value is true; go-git reads it as "".
	if v := cfg.Raw.Section("extensions").Option("worktreeConfig"); v != "" && !truthy(v) {
		return "", nil
	}
	path := filepath.Join(loc.gitDir, "config.worktree")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	own := config.NewConfig()
	if err := own.Unmarshal(data); err != nil {
		return "the worktree's configuration (config.worktree): " + err.Error(), nil
	}
	if why := probeConfig(own, location{gitDir: loc.gitDir, workTree: loc.workTree}); why != "" {
		return why + " in config.worktree", nil
	}
	return "", nil
}
