package gitdiff

import (
	"errors"
	"maps"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gitread"
)

// Repo is an open repository.
type Repo struct {
	opts      Options
	gitDir    string // this work tree's git directory
	commonDir string // "" when gitDir is the common directory
	workTree  string // "" for a bare repository
	// reader reads objects, HEAD and the index for the whole run;
	// readerWhy says why git serves the run ("" for the fast reader).
	reader    gitread.Reader
	readerWhy string
	// git runs git on this repository: revisions, configuration.
	git *gitread.Git
	// storage reads the files go-git reads well: the shallow boundary,
	// the commit-graph's place, the refs for the fast reader.
	storage *filesystem.Storage
	// config is git's configuration, read on first need.
	config *gitConfig
	// blobs, trees and commits are what the run has read (see Range for
	// what it keeps); lastTrees are the trees the unit before read.
	blobs     map[versionKey]*changes.Blob
	trees     map[plumbing.Hash]*treeObject
	lastTrees map[plumbing.Hash]*treeObject
	commits   map[plumbing.Hash]*object.Commit
	// load reads what units leave unread, on first need (see loader).
	load *loader
}

// Open opens the repository that contains dir: a work tree (from any of its
// subdirectories), a linked worktree, or a bare repository, found as git
// finds it, with the reader gitread.Open's probe chooses for the run
// (SMALL_HOOK_READER=git, read through opts, has git serve it whatever the
// probe finds).
func Open(dir string, opts Options) (*Repo, error) {
	found, err := gitread.Open(dir, opts)
	if err != nil {
		return nil, err
	}
	return openRepoAt(found, opts), nil
}

func openRepoAt(found *gitread.Repository, opts Options) *Repo {
	return &Repo{opts: opts, gitDir: found.GitDir, commonDir: found.CommonDir, workTree: found.WorkTree,
		reader: found.Reader, readerWhy: found.Why, git: found.Git, storage: found.Storage,
		blobs: map[versionKey]*changes.Blob{}, trees: map[plumbing.Hash]*treeObject{}, commits: map[plumbing.Hash]*object.Commit{}}
}

// twin opens the same repository again, with the same reader: a Repo shares
// no state with its twin (object stores, caches, processes), so the two can
// be read on two goroutines at once, one each. The twin starts with the
// commits r has decoded (a range's, once it is walked), so that none is
// decoded twice.
func (r *Repo) twin() (*Repo, error) {
	t := openRepoAt(r.found().Twin(), r.opts)
	t.commits = maps.Clone(r.commits)
	return t, nil
}

// found is the repository r reads, as Open found it.
func (r *Repo) found() *gitread.Repository {
	return &gitread.Repository{GitDir: r.gitDir, CommonDir: r.commonDir, WorkTree: r.workTree,
		Reader: r.reader, Why: r.readerWhy, Git: r.git, Storage: r.storage}
}

// Reader names the reader that serves the run (ReaderFast or ReaderGit)
// and, for git, why the fast reader could not.
func (r *Repo) Reader() (name, why string) { return r.reader.Name(), r.readerWhy }

// Close releases the files and processes the repository holds; the Repo
// must not be used afterwards.
func (r *Repo) Close() error {
	err := r.reader.Close()
	if r.load != nil {
		err = errors.Join(err, r.load.close())
	}
	return err
}

// WorkTree is the root of the work tree; "" for a bare repository.
func (r *Repo) WorkTree() string { return r.workTree }

// objectsDir is where the repository keeps its objects (shared by linked
// worktrees).
func (r *Repo) objectsDir() string { return r.found().ObjectsDir() }
