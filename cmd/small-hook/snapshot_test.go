//go:build e2e

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
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
	files, err := gittest.Run(root, gittest.Env("GIT_OPTIONAL_LOCKS=0"), nil, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--deduplicate")
	if err != nil {
		testskip.Skip(t, "%s is not a git checkout of small-hook: %v", root, err)
	}
	s := newTestRepo(t)
	for _, name := range strings.Split(strings.TrimSuffix(files, "\x00"), "\x00") {
		src, dst := filepath.Join(root, name), s.Path(name)
		if _, err := os.Lstat(src); os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := gittest.CopyTree(src, dst); err != nil {
			t.Fatalf("copying the working tree: %v", err)
		}
	}
	s.Commit("working tree of small-hook")
	return s
}
