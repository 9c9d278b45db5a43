package hooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
	"github.com/small-hook/small-hook/internal/testskip"
)

// isolate makes the git configuration the tests see their own: no system
// file, an empty global file, and a temporary home directory. It returns
// the global configuration file.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	global := filepath.Join(home, "gitconfig")
	writeFile(t, global, "", 0o644)
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, name := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"} {
		t.Setenv(name, "")
		os.Unsetenv(name)
	}
	return global
}

// git runs git in dir as gittest does, but with the global configuration
// file isolate set up, and the given extra environment; it returns the
// trimmed output.
func git(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	global := "GIT_CONFIG_GLOBAL=" + os.Getenv("GIT_CONFIG_GLOBAL")
	return gittest.At(t, dir).GitEnv(append([]string{global}, env...), args...)
}

// newRepo creates a repository with one commit.
func newRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, nil, "init", "-q", "-b", "main")
	git(t, dir, nil, "commit", "-q", "--allow-empty", "-m", "one")
	return dir
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// fakeBinary writes an executable small-hook into dir that appends its
// arguments, one call per line, to log, appends its standard input to
// log.stdin and exits with $FAKE_EXIT (0 by default).
func fakeBinary(t *testing.T, dir, log string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, "small-hook"),
		"#!/bin/sh\necho \"$*\" >> '"+log+"'\ncat >> '"+log+".stdin'\nexit ${FAKE_EXIT:-0}\n", 0o755)
}

// minimalPath returns a PATH holding dirs first, then a directory of its
// own with links to exactly the tools the hook scripts and the fake
// binaries use. Nothing else is on it, so a small-hook or go installed next
// to git (Debian's /usr/bin/go) can never stand in for the fakes.
func minimalPath(t *testing.T, dirs ...string) string {
	t.Helper()
	tools := t.TempDir()
	for _, tool := range []string{"sh", "git", "cut", "cat"} {
		p, err := exec.LookPath(tool)
		if err != nil {
			testskip.Skip(t, "%s is not installed", tool)
		}
		if err := os.Symlink(p, filepath.Join(tools, tool)); err != nil {
			t.Fatal(err)
		}
	}
	return "PATH=" + strings.Join(append(dirs, tools), string(os.PathListSeparator))
}

// calls returns the logged calls of the fake binary.
func calls(t *testing.T, log string) []string {
	t.Helper()
	data, err := os.ReadFile(log)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}
