//go:build e2e

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
		src, dst := filepath.Join(root, string(name)), filepath.Join(s.dir, string(name))
		if _, err := os.Lstat(src); os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := copyFile(src, dst); err != nil {
			t.Fatalf("copying the working tree: %v", err)
		}
	}
	s.commit("working tree of small-hook")
	return s
}
