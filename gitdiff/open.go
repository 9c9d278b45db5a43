package gitdiff

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/small-hook/small-hook/internal/changes"
)

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

// getenv reads one variable through o.Getenv.
func (o Options) getenv(name string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(name)
}

// Repo is an open repository.
type Repo struct {
	opts      Options
	gitDir    string // this work tree's git directory
	commonDir string // "" when gitDir is the common directory
	workTree  string // "" for a bare repository
	// reader reads objects, HEAD and the index for the whole run;
	// readerWhy says why git serves the run ("" for the fast reader).
	reader    reader
	readerWhy string
	// git runs git on this repository: revisions, configuration.
	git *gitRunner
	// storage reads the files go-git reads well: the shallow boundary,
	// the commit-graph's place, the refs for the fast reader.
	storage *filesystem.Storage
	// config is git's configuration, read on first need.
	config *gitConfig
	// blobs, trees and commits are what the run has read (see Range for
	// what it keeps); lastTrees are the trees the unit before read.
	blobs     map[versionKey]*changes.Blob
	trees     map[plumbing.Hash]*object.Tree
	lastTrees map[plumbing.Hash]*object.Tree
	commits   map[plumbing.Hash]*object.Commit
	// load reads what units leave unread, on first need (see loader).
	load *loader
}

// Open opens the repository that contains dir: a work tree (from any of its
// subdirectories), a linked worktree, or a bare repository. GIT_DIR and
// GIT_WORK_TREE, read through opts, are honoured as git honours them;
// where the files do not settle which repository git would open (see
// locate), git says, and reads it. A probe of the repository decides which
// reader serves the run (see probe and Reader); SMALL_HOOK_READER=git, read
// through opts, has git serve it whatever the probe finds.
func Open(dir string, opts Options) (*Repo, error) {
	switch asked := opts.getenv("SMALL_HOOK_READER"); asked {
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
	if why == "" && opts.getenv("SMALL_HOOK_READER") == ReaderGit {
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
func openFast(loc location, opts Options, storage *filesystem.Storage, fast *fastReader) *Repo {
	r := openRepoAt(loc, opts, storage)
	override := map[string]string{"GIT_DIR": loc.gitDir, "GIT_WORK_TREE": loc.workTree}
	runIn := loc.workTree
	if runIn == "" {
		runIn = loc.gitDir
	}
	r.git = newGitRunner(runIn, opts, override)
	fast.objects, fast.refs = newObjectStore(loc.objectsDir()), storage
	r.reader = fast
	return r
}

// openWithGit opens the repository git finds from dir, with git as its
// reader: where it is, its format and everything it holds come from git.
func openWithGit(dir string, opts Options, why string) (*Repo, error) {
	runner := newGitRunner(dir, opts, nil)
	loc, err := gitLocate(runner)
	if err != nil {
		return nil, err
	}
	r := openRepoAt(loc, opts, newStorage(loc))
	r.git, r.readerWhy = runner, why
	r.reader = &gitReader{git: runner, indexPath: r.indexPath()}
	return r, nil
}

func openRepoAt(loc location, opts Options, storage *filesystem.Storage) *Repo {
	return &Repo{opts: opts, gitDir: loc.gitDir, commonDir: loc.commonDir, workTree: loc.workTree, storage: storage,
		blobs: map[versionKey]*changes.Blob{}, trees: map[plumbing.Hash]*object.Tree{}, commits: map[plumbing.Hash]*object.Commit{}}
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
func gitLocate(runner *gitRunner) (location, error) {
	out, err := runner.output("rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--is-inside-work-tree", "--show-object-format")
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
		top, err := runner.line("rev-parse", "--show-toplevel")
		if err != nil {
			return location{}, fmt.Errorf("finding the work tree: %w", err)
		}
		loc.workTree = top
	}
	return loc, nil
}

// twin opens the same repository again, with the same reader: a Repo shares
// no state with its twin (object stores, caches, processes), so the two can
// be read on two goroutines at once, one each. The twin starts with the
// commits r has decoded (a range's, once it is walked), so that none is
// decoded twice.
func (r *Repo) twin() (*Repo, error) {
	loc := location{gitDir: r.gitDir, commonDir: r.commonDir, workTree: r.workTree}
	t := openRepoAt(loc, r.opts, newStorage(loc))
	t.git, t.readerWhy, t.reader = r.git, r.readerWhy, r.reader.twin()
	t.commits = maps.Clone(r.commits)
	return t, nil
}

// Reader names the reader that serves the run (ReaderFast or ReaderGit)
// and, for git, why the fast reader could not.
func (r *Repo) Reader() (name, why string) { return r.reader.name(), r.readerWhy }

// Close releases the files and processes the repository holds; the Repo
// must not be used afterwards.
func (r *Repo) Close() error {
	err := r.reader.close()
	if r.load != nil {
		err = errors.Join(err, r.load.close())
	}
	return err
}

// WorkTree is the root of the work tree; "" for a bare repository.
func (r *Repo) WorkTree() string { return r.workTree }

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
