package main

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitEnv isolates test repositories from the machine's git configuration.
var gitEnv = []string{
	"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
	"GIT_AUTHOR_NAME=Test Human", "GIT_AUTHOR_EMAIL=human@example.com",
	"GIT_COMMITTER_NAME=Test Human", "GIT_COMMITTER_EMAIL=human@example.com",
}

// testRepo is a real git repository in a temporary directory.
type testRepo struct {
	t   testing.TB
	dir string
}

// newTestRepo returns an empty repository on branch main: a copy of the
// one TestMain initialised.
func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	r := &testRepo{t: t, dir: t.TempDir()}
	if err := copyTree(emptyGitDir, filepath.Join(r.dir, ".git")); err != nil {
		t.Fatalf("copying the empty repository: %v", err)
	}
	return r
}

// copyTree copies a directory tree of files, symbolic links and
// directories, keeping permissions.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.Mkdir(filepath.Join(dst, rel), info.Mode().Perm())
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
}

// copyFile copies a regular file with its permissions, or a symbolic link
// as a link, into an existing directory.
func copyFile(src, dst string) error {
	info, err := os.Lstat(src)
	if err != nil {
		return err
	}
	switch {
	case info.Mode()&os.ModeSymlink != 0:
		target, err := os.Readlink(src)
		if err != nil {
			return err
		}
		return os.Symlink(target, dst)
	case info.Mode().IsRegular():
		data, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode().Perm())
	default:
		return fmt.Errorf("%s is neither a file, a symbolic link nor a directory", src)
	}
}

// git runs git in the repository and returns its trimmed output.
func (r *testRepo) git(args ...string) string {
	r.t.Helper()
	return r.gitEnv(nil, args...)
}

func (r *testRepo) gitEnv(extra []string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(append(os.Environ(), gitEnv...), extra...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return strings.TrimSpace(out.String())
}

func (r *testRepo) write(path, content string) {
	r.t.Helper()
	full := filepath.Join(r.dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *testRepo) read(path string) string {
	r.t.Helper()
	return readFile(r.t, filepath.Join(r.dir, filepath.FromSlash(path)))
}

// remove deletes a file from the work tree (or the git directory).
func (r *testRepo) remove(path string) {
	r.t.Helper()
	if err := os.Remove(filepath.Join(r.dir, filepath.FromSlash(path))); err != nil {
		r.t.Fatal(err)
	}
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
	r.t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		r.t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			r.t.Fatal(err)
		}
		r.write(dst+"/"+e.Name(), string(data))
	}
}

// commit stages everything and commits with the message.
func (r *testRepo) commit(msg string) string {
	r.t.Helper()
	r.git("add", "-A")
	r.git("commit", "-q", "--allow-empty", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

// check runs small-hook in the repository and returns its exit code,
// stdout and stderr.
func (r *testRepo) check(vars map[string]string, args ...string) (int, string, string) {
	r.t.Helper()
	var out, errOut bytes.Buffer
	ev := &env{stdout: &out, stderr: &errOut, dir: r.dir, getenv: func(k string) string { return vars[k] }}
	code := run(args, ev)
	return code, out.String(), errOut.String()
}
