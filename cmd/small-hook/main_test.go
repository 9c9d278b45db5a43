package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
)

// builtBinary is the small-hook binary the end-to-end tests run through
// git: built once per run of this package's tests, in the background while
// the in-process tests run.
type builtBinary struct {
	dir  string
	done chan struct{}
	err  error
}

// smallHook is set up by TestMain before any test runs and only read
// afterwards.
var smallHook = builtBinary{done: make(chan struct{})}

// emptyGitDir is the git directory of a repository just initialised for
// the tests (`git init -b main`, no signing), made once by TestMain and
// copied by newTestRepo.
var emptyGitDir string

// path waits for the build and returns the binary's path.
func (b *builtBinary) path(t testing.TB) string {
	t.Helper()
	<-b.done
	if b.err != nil {
		t.Fatalf("building small-hook: %v", b.err)
	}
	return filepath.Join(b.dir, "small-hook")
}

func TestMain(m *testing.M) {
	// In-process checks read these from the process environment; a test run
	// from inside a git hook or by an agent with its identity exported
	// would otherwise check another index or commit as someone else.
	for _, name := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL",
		"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"} {
		os.Unsetenv(name)
	}
	os.Exit(runTests(m))
}

// runTests prepares the shared fixtures in a temporary directory, runs the
// tests and removes the directory.
func runTests(m *testing.M) int {
	tmp, err := os.MkdirTemp("", "small-hook-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(tmp)
	if err := initEmptyRepo(filepath.Join(tmp, "empty")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	emptyGitDir = filepath.Join(tmp, "empty", ".git")
	smallHook.dir = filepath.Join(tmp, "bin")
	go func() {
		defer close(smallHook.done)
		var stderr bytes.Buffer
		build := exec.Command("go", "build", "-o", filepath.Join(smallHook.dir, "small-hook"), ".")
		build.Stderr = &stderr
		if err := build.Run(); err != nil {
			smallHook.err = fmt.Errorf("go build: %w\n%s", err, stderr.String())
		}
	}()
	defer func() { <-smallHook.done }()
	return m.Run()
}

// initEmptyRepo creates the repository newTestRepo copies.
func initEmptyRepo(dir string) error {
	for _, args := range [][]string{{"init", "-q", "-b", "main", dir}, {"-C", dir, "config", "commit.gpgsign", "false"}} {
		if _, err := gittest.Run("", gittest.Env(), nil, args...); err != nil {
			return err
		}
	}
	return nil
}
