package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
)

// testRepo is a real git repository of a test (gittest.Repo) that
// small-hook checks in-process.
type testRepo struct{ *gittest.Repo }

// newTestRepo returns an empty repository on branch main: a copy of the
// one TestMain initialised.
func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	r := repoAt(t, t.TempDir())
	if err := gittest.CopyTree(emptyGitDir, r.Path(".git")); err != nil {
		t.Fatalf("copying the empty repository: %v", err)
	}
	return r
}

// repoAt is the repository at dir, which need not exist yet.
func repoAt(t testing.TB, dir string) *testRepo {
	return &testRepo{gittest.At(t, dir)}
}

// readFile returns the content of a file that must exist.
func readFile(t testing.TB, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// copyDir copies the files of a testdata directory into the repository.
func (r *testRepo) copyDir(src, dst string) {
	r.T.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		r.T.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			r.T.Fatal(err)
		}
		r.Write(dst+"/"+e.Name(), string(data))
	}
}

// check runs small-hook in the repository and returns its exit code,
// stdout and stderr.
func (r *testRepo) check(vars map[string]string, args ...string) (int, string, string) {
	r.T.Helper()
	var out, errOut bytes.Buffer
	ev := &env{stdout: &out, stderr: &errOut, dir: r.Dir, getenv: func(k string) string { return vars[k] }}
	code := run(args, ev)
	return code, out.String(), errOut.String()
}

// checkInput is check with stdin as its standard input (what git hands
// the pre-push hook) and an empty environment.
func (r *testRepo) checkInput(stdin string, args ...string) (int, string, string) {
	r.T.Helper()
	var out, errOut bytes.Buffer
	ev := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errOut, dir: r.Dir, getenv: func(string) string { return "" }}
	code := run(args, ev)
	return code, out.String(), errOut.String()
}
