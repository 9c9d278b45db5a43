package gitread

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// ErrUnsupported marks a repository format small-hook cannot read; the
// wrapping error says which and what to do about it.
var ErrUnsupported = errors.New("unsupported repository format")

// Options configure how a repository is found and read.
type Options struct {
	// Getenv reads the environment git gives its hooks: where the
	// repository, its index and its objects are (GIT_DIR, GIT_WORK_TREE,
	// GIT_INDEX_FILE, a pre-receive hook's quarantine), the identities
	// (GIT_AUTHOR_*, GIT_COMMITTER_*), and what the git commands small-hook
	// runs need (PATH, HOME, GIT_CONFIG_*; see passedEnv), and
	// SMALL_HOOK_READER (see Open). The git commands get no other
	// variable of the process. nil reads none of them.
	Getenv func(string) string
	// NoIndex says the run reads no index (the agent guard judges a write
	// against HEAD): Open does not probe it, and reading it is an error.
	NoIndex bool
}

// Env reads one variable through o.Getenv.
func (o Options) Env(name string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(name)
}

// Repository is a repository found and probed: where it is, and the
// reader that serves its run.
type Repository struct {
	// GitDir is the work tree's own git directory, CommonDir the directory
	// the worktrees share ("" when it is GitDir), WorkTree the root of the
	// work tree ("" for a bare repository).
	GitDir, CommonDir, WorkTree string
	// Reader reads objects, HEAD and the index for the whole run; Why
	// says why git serves the run ("" for the fast reader).
	Reader Reader
	Why    string
	// Git runs git on this repository: revisions, configuration.
	Git *Git
	// Storage reads the files go-git reads well: the shallow boundary,
	// the commit-graph's place, the refs for the fast reader.
	Storage *filesystem.Storage
}

// Open finds the repository that contains dir: a work tree (from any of
// its subdirectories), a linked worktree, or a bare repository. GIT_DIR
// and GIT_WORK_TREE, read through opts, are honoured as git honours them;
// where the files do not settle which repository git would open (see
// locate), git says, and reads it. A probe of the repository decides which
// reader serves the run (see probe and Reader); SMALL_HOOK_READER=git, read
// through opts, has git serve it whatever the probe finds.
func Open(dir string, opts Options) (*Repository, error) {
	switch asked := opts.Env("SMALL_HOOK_READER"); asked {
	case "", "auto", ReaderGit:
	default:
		return nil, fmt.Errorf("SMALL_HOOK_READER=%s: the reader can be git or auto (the fast reader is taken only where the probe proves it reads as git does)", asked)
	}
	loc, err := locate(dir, opts)
	if err != nil {
		return openWithGit(dir, opts, "where the repository is: "+err.Error())
	}
	storage := newStorage(loc)
	cfg, cfgErr := storage.Config()
	why, err := probe(loc, cfg, cfgErr, opts)
	if err != nil {
		return nil, err
	}
	if why == "" && opts.Env("SMALL_HOOK_READER") == ReaderGit {
		why = "SMALL_HOOK_READER=git"
	}
	fast := &fastReader{indexPath: indexPathOf(loc, opts), noIndex: opts.NoIndex}
	if why == "" && loc.workTree != "" && !opts.NoIndex {
		if why, fast, err = probeIndex(fast.indexPath); err != nil {
			return nil, err
		}
	}
	if why != "" {
		return openWithGit(dir, opts, why)
	}
	return openFast(loc, opts, storage, fast), nil
}

// openFast opens the repository at loc with the fast reader, whose index
// the probe has read.
func openFast(loc location, opts Options, storage *filesystem.Storage, fast *fastReader) *Repository {
	override := map[string]string{"GIT_DIR": loc.gitDir, "GIT_WORK_TREE": loc.workTree}
	runIn := loc.workTree
	if runIn == "" {
		runIn = loc.gitDir
	}
	fast.objects, fast.refs = newObjectStore(loc.objectsDir()), storage
	return &Repository{GitDir: loc.gitDir, CommonDir: loc.commonDir, WorkTree: loc.workTree,
		Reader: fast, Git: NewGit(runIn, opts, override), Storage: storage}
}

// openWithGit opens the repository git finds from dir, with git as its
// reader: where it is, its format and everything it holds come from git.
func openWithGit(dir string, opts Options, why string) (*Repository, error) {
	runner := NewGit(dir, opts, nil)
	loc, err := gitLocate(runner)
	if err != nil {
		return nil, err
	}
	return &Repository{GitDir: loc.gitDir, CommonDir: loc.commonDir, WorkTree: loc.workTree,
		Reader: &gitReader{git: runner, indexPath: indexPathOf(loc, opts)}, Why: why, Git: runner, Storage: newStorage(loc)}, nil
}

// Twin opens the same repository again, with a twin of its reader: the
// two share no state (object stores, caches, processes), so they can be
// read on two goroutines at once, one each.
func (r *Repository) Twin() *Repository {
	t := *r
	t.Reader = r.Reader.Twin()
	t.Storage = newStorage(location{gitDir: r.GitDir, commonDir: r.CommonDir})
	return &t
}

// ObjectsDir is where the repository keeps its objects (shared by linked
// worktrees).
func (r *Repository) ObjectsDir() string {
	return location{gitDir: r.GitDir, commonDir: r.CommonDir}.objectsDir()
}

// newStorage is go-git's storage of the repository at loc.
func newStorage(loc location) *filesystem.Storage {
	var fs billy.Filesystem = osfs.New(loc.gitDir)
	if loc.commonDir != "" {
		fs = newWorktreeFiles(loc.gitDir, loc.commonDir)
	}
	return filesystem.NewStorage(fs, cache.NewObjectLRUDefault())
}

// gitLocate asks git where the repository is, and refuses a format
// small-hook does not read.
func gitLocate(runner *Git) (location, error) {
	out, err := runner.Output("rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--is-inside-work-tree", "--show-object-format")
	if err != nil {
		return location{}, fmt.Errorf("finding the repository: %w", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 4 {
		return location{}, fmt.Errorf("finding the repository: git rev-parse printed %q", out)
	}
	if lines[3] != "sha1" {
		return location{}, fmt.Errorf("%w: %s", ErrUnsupported, sha256Unsupported(lines[3]))
	}
	loc := location{gitDir: filepath.Clean(lines[0])}
	if common := filepath.Clean(lines[1]); common != loc.gitDir {
		loc.commonDir = common
	}
	if lines[2] == "true" {
		top, err := runner.Line("rev-parse", "--show-toplevel")
		if err != nil {
			return location{}, fmt.Errorf("finding the work tree: %w", err)
		}
		loc.workTree = top
	}
	return loc, nil
}

// checkFormat rejects repository formats go-git cannot read correctly.
func checkFormat(cfg *config.Config) error {
	if cfg.Raw == nil || !cfg.Raw.HasSection("extensions") {
		return nil
	}
	ext := cfg.Raw.Section("extensions")
	if f := ext.Option("objectformat"); f != "" && !strings.EqualFold(f, "sha1") {
		return fmt.Errorf("%w: %s", ErrUnsupported, sha256Unsupported(f))
	}
	return nil
}

// sha256Unsupported says why a repository of another object format than
// SHA-1 cannot be checked, whichever reader would read it.
func sha256Unsupported(format string) string {
	return fmt.Sprintf("the repository's objects are named by %s ids: small-hook names every object by a 20-byte SHA-1 id (go-git v5's plumbing.Hash, which its readers, units and reports carry), so it reads SHA-1 repositories only", format)
}
