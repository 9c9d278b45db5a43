package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// manyWorkspaces is the number of SMALL workspaces of the benchmarks
// below: 10,000 copies of the reference CLI's workspace, each file made
// distinct by a comment (28.9 MB).
const manyWorkspaces = 10000

// manyWorkspacesRepo writes manyWorkspaces copies of the reference
// workspace into a new repository, unstaged.
func manyWorkspacesRepo(b *testing.B) *testRepo {
	b.Helper()
	r := newTestRepo(b)
	files, err := os.ReadDir(fixtureInit)
	if err != nil {
		b.Fatal(err)
	}
	contents := map[string][]byte{}
	for _, f := range files {
		if contents[f.Name()], err = os.ReadFile(filepath.Join(fixtureInit, f.Name())); err != nil {
			b.Fatal(err)
		}
	}
	for i := range manyWorkspaces {
		dir := filepath.Join(r.Dir, fmt.Sprintf("ws%05d", i), ".small")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for name, data := range contents {
			// Every file distinct, as in real repositories: no blob is shared.
			unique := fmt.Appendf(data[:len(data):len(data)], "# workspace %05d\n", i)
			if err := os.WriteFile(filepath.Join(dir, name), unique, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return r
}

// BenchmarkManyWorkspacesStaged is the pre-commit hook on a change that
// adds 10,000 workspaces.
func BenchmarkManyWorkspacesStaged(b *testing.B) {
	r := manyWorkspacesRepo(b)
	r.Git("add", "-A")
	benchCheck(b, r, "check")
}

// BenchmarkManyWorkspacesRange is the pull-request check of one commit
// that adds 10,000 workspaces.
func BenchmarkManyWorkspacesRange(b *testing.B) {
	r := manyWorkspacesRepo(b)
	r.Write("README.md", "x\n")
	r.Git("add", "README.md")
	r.Git("commit", "-q", "-m", "base")
	base := r.Git("rev-parse", "HEAD")
	r.Commit("10,000 workspaces")
	benchCheck(b, r, "check", "--base", base)
}

func benchCheck(b *testing.B, r *testRepo, args ...string) {
	b.Helper()
	e := &env{stdout: io.Discard, stderr: io.Discard, dir: r.Dir, getenv: func(string) string { return "" }}
	for b.Loop() {
		if code := run(args, e); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}
