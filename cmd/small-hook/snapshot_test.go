package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/small-hook/small-hook/internal/testskip"
)

// snapshotWorkingTree commits this checkout's working tree as it is (tracked
// and untracked files that are not ignored, edits included, deletions
// applied) in a throw-away repository, so that tools which install hooks
// from a commit test the code under test rather than the last commit.
func snapshotWorkingTree(t *testing.T) *testRepo {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	list := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate")
	list.Env = cleanEnv("GIT_OPTIONAL_LOCKS=0")
	var stderr bytes.Buffer
	list.Stderr = &stderr
	files, err := list.Output()
	if err != nil {
		testskip.Skip(t, "%s is not a git checkout of small-hook: %v %s", root, err, stderr.String())
	}
	s := newTestRepo(t)
	for _, name := range bytes.Split(bytes.TrimSuffix(files, []byte{0}), []byte{0}) {
		copyPath(t, filepath.Join(root, string(name)), filepath.Join(s.dir, string(name)))
	}
	s.commit("working tree of small-hook")
	return s
}

// copyPath copies a regular file with its permissions, or a symbolic link
// as a link; a path deleted from the working tree is left out.
func copyPath(t *testing.T, src, dst string) {
	t.Helper()
	info, err := os.Lstat(src)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	switch {
	case info.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, dst); err != nil {
			t.Fatal(err)
		}
	case info.Mode().IsRegular():
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("%s is neither a file nor a symbolic link", src)
	}
}
