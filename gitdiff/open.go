package gitdiff

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"

	"github.com/small-hook/small-hook/changes"
)

// Options configure how a repository is found and read.
type Options struct {
	// Getenv reads the environment git gives its hooks: GIT_DIR,
	// GIT_WORK_TREE, GIT_INDEX_FILE, GIT_AUTHOR_NAME, GIT_AUTHOR_EMAIL,
	// GIT_COMMITTER_NAME and GIT_COMMITTER_EMAIL, GIT_QUARANTINE_PATH and
	// GIT_OBJECT_DIRECTORY (a push's objects, see quarantined), and for SigningSettings
	// where git's configuration is (HOME, XDG_CONFIG_HOME, EMAIL,
	// GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM,
	// GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT and its keys and values). nil
	// reads none of them.
	Getenv func(string) string
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
	repo      *git.Repository
	storage   *filesystem.Storage
	opts      Options
	gitDir    string // this work tree's git directory
	commonDir string // "" when gitDir is the common directory
	workTree  string // "" for a bare repository
	// index holds the index file's bytes once read: a check reads it for
	// the governed files and for configuration files.
	index     []byte
	indexRead bool
	// indexChecked waits for the verification of the index's checksum,
	// which runs while the index is decoded (see readIndex).
	indexChecked func() error
	// indexCommon and indexAll are the index decoded for most scopes and
	// for every path (see readIndex).
	indexCommon, indexAll *indexFile
	// releases unmap what the repository mapped.
	releases []func() error
	blobs    map[string]*changes.Blob
	// objects reads loose and packed objects without go-git, which reads
	// what it cannot find.
	objects *objectStore
}

// Open opens the repository that contains dir: a work tree (from any of its
// subdirectories), a linked worktree, or a bare repository. GIT_DIR and
// GIT_WORK_TREE, read through opts, are honoured as git honours them.
func Open(dir string, opts Options) (*Repo, error) {
	loc, err := locate(dir, opts)
	if err != nil {
		return nil, err
	}
	return openAt(loc, opts)
}

// openAt opens the repository whose files are at loc.
func openAt(loc location, opts Options) (*Repo, error) {
	var fs billy.Filesystem = osfs.New(loc.gitDir)
	if loc.commonDir != "" {
		fs = dotgit.NewRepositoryFilesystem(fs, osfs.New(loc.commonDir))
	}
	return open(filesystem.NewStorage(fs, cache.NewObjectLRUDefault()), loc, opts)
}

// twin opens the same repository again: a Repo shares no state with its
// twin (object stores, caches, go-git's storage), so the two can be read
// on two goroutines at once, one each.
func (r *Repo) twin() (*Repo, error) {
	return openAt(location{gitDir: r.gitDir, commonDir: r.commonDir, workTree: r.workTree}, r.opts)
}

func open(storage *filesystem.Storage, loc location, opts Options) (*Repo, error) {
	cfg, err := storage.Config()
	if err != nil {
		return nil, fmt.Errorf("reading the git config of %s: %w", loc.gitDir, err)
	}
	if err := checkFormat(cfg); err != nil {
		return nil, err
	}
	r := &Repo{storage: storage, opts: opts, gitDir: loc.gitDir, commonDir: loc.commonDir, workTree: loc.workTree, blobs: map[string]*changes.Blob{}}
	r.objects = newObjectStore(r.objectsDir())
	r.objects.incoming = quarantined(opts, loc.gitDir)
	if r.repo, err = git.Open(&tolerantStorage{Storage: storage, objects: r.objects}, nil); err != nil {
		return nil, fmt.Errorf("opening %s: %w", loc.gitDir, err)
	}
	return r, nil
}

// Close releases the files the repository holds open or mapped; the Repo
// must not be used afterwards.
func (r *Repo) Close() error {
	errs := []error{r.objects.close()}
	for _, release := range r.releases {
		errs = append(errs, release())
	}
	r.releases, r.index, r.indexRead, r.indexCommon, r.indexAll = nil, nil, false, nil, nil
	return errors.Join(errs...)
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
		return fmt.Errorf("%w: %s object format (SHA-256 repositories are not supported by go-git)", ErrUnsupported, f)
	}
	return nil
}

// tolerantStorage is the storage go-git reads through. It hides
// extensions.worktreeConfig from go-git, which refuses repositories that
// set it (`git sparse-checkout` does) although it changes nothing
// small-hook reads (go-git issue #1943), and it reads objects with
// objectStore, leaving to go-git's own storage only what that cannot find.
type tolerantStorage struct {
	*filesystem.Storage
	objects *objectStore
}

// EncodedObject reads an object of type t (or any type) by its id.
func (s *tolerantStorage) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	kind, data, err := s.objects.read(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return s.Storage.EncodedObject(t, h)
	}
	if err != nil {
		return nil, err
	}
	if t != plumbing.AnyObject && kind != t {
		return nil, plumbing.ErrObjectNotFound
	}
	return &storedObject{hash: h, kind: kind, data: data}, nil
}

// Config returns the repository configuration without worktreeConfig.
func (s *tolerantStorage) Config() (*config.Config, error) {
	cfg, err := s.Storage.Config()
	if err != nil || cfg.Raw == nil || !cfg.Raw.HasSection("extensions") {
		return cfg, err
	}
	ext := cfg.Raw.Section("extensions")
	if ext.HasOption("worktreeConfig") {
		ext.RemoveOption("worktreeConfig")
	}
	return cfg, nil
}

// location is where a repository keeps its files.
type location struct {
	gitDir    string
	commonDir string // "" when gitDir is the common directory
	workTree  string // "" when bare
}

func locate(dir string, opts Options) (location, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return location{}, fmt.Errorf("resolving %s: %w", dir, err)
	}
	if gd := opts.getenv("GIT_DIR"); gd != "" {
		return fromGitDirEnv(abs, gd, opts.getenv("GIT_WORK_TREE"))
	}
	for d := abs; ; {
		dotgit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotgit); err == nil {
			loc := location{gitDir: dotgit, workTree: d}
			if !fi.IsDir() {
				if loc.gitDir, err = readGitFile(dotgit); err != nil {
					return location{}, err
				}
			}
			loc.commonDir, err = commonDir(loc.gitDir)
			return loc, err
		}
		if isGitDir(d) {
			loc := location{gitDir: d}
			loc.commonDir, err = commonDir(d)
			return loc, err
		}
		parent := filepath.Dir(d)
		if parent == d {
			return location{}, fmt.Errorf("%s is not inside a git repository", abs)
		}
		d = parent
	}
}

func fromGitDirEnv(cwd, gd, wt string) (location, error) {
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(cwd, gd)
	}
	if !isGitDir(gd) {
		return location{}, fmt.Errorf("GIT_DIR=%s is not a git directory", gd)
	}
	loc := location{gitDir: gd, workTree: cwd}
	if wt != "" {
		if !filepath.IsAbs(wt) {
			wt = filepath.Join(cwd, wt)
		}
		loc.workTree = wt
	}
	var err error
	loc.commonDir, err = commonDir(gd)
	return loc, err
}

// isGitDir reports whether d looks like a git directory (bare or .git).
func isGitDir(d string) bool {
	for _, name := range []string{"HEAD", "objects", "refs"} {
		if _, err := os.Stat(filepath.Join(d, name)); err != nil {
			return false
		}
	}
	return true
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
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(filepath.Dir(path), target)
	}
	return filepath.Clean(target), nil
}

// commonDir returns the common directory of a linked worktree's git
// directory, or "" when gitDir is itself the common directory.
func commonDir(gitDir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s/commondir: %w", gitDir, err)
	}
	dir := strings.TrimSpace(string(data))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(gitDir, dir)
	}
	return filepath.Clean(dir), nil
}

// Location is where a repository keeps its files.
type Location struct {
	// GitDir is this work tree's git directory.
	GitDir string
	// CommonDir is the directory shared by all worktrees (objects, refs,
	// config, hooks); equal to GitDir outside linked worktrees.
	CommonDir string
	// WorkTree is the work tree's root; "" for a bare repository.
	WorkTree string
}

// LocateWith finds the repository that contains dir without opening it,
// reading GIT_DIR and GIT_WORK_TREE through opts.
func LocateWith(dir string, opts Options) (Location, error) {
	loc, err := locate(dir, opts)
	if err != nil {
		return Location{}, err
	}
	common := loc.commonDir
	if common == "" {
		common = loc.gitDir
	}
	return Location{GitDir: loc.gitDir, CommonDir: common, WorkTree: loc.workTree}, nil
}

// objectsDir is where the repository keeps its objects (shared by linked
// worktrees).
func (r *Repo) objectsDir() string {
	if r.commonDir != "" {
		return filepath.Join(r.commonDir, "objects")
	}
	return filepath.Join(r.gitDir, "objects")
}
