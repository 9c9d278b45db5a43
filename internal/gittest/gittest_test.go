package gittest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTheEnvironmentCannotSteerGit: a test run from another repository's
// hook, or by an agent with its identity exported, still builds its own
// repository as Name, and the user's configuration (here one that
// requires signing, which would make every commit fail) is not read.
func TestTheEnvironmentCannotSteerGit(t *testing.T) {
	outer := New(t)
	outer.Commit("outer")
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[commit]\n\tgpgsign = true\n[user]\n\tname = Someone Else\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", home)
	t.Setenv("GIT_DIR", outer.Path(".git"))
	t.Setenv("GIT_WORK_TREE", outer.Dir)
	t.Setenv("GIT_INDEX_FILE", outer.Path(".git/index"))
	t.Setenv("GIT_AUTHOR_NAME", "Exported Agent")
	t.Setenv("GIT_COMMITTER_EMAIL", "agent@example.com")

	r := New(t)
	r.Write("a/b.txt", "b\n")
	id := r.Commit("one")
	if got := r.Git("log", "-1", "--format=%an <%ae> %cn <%ce>", id); got != Name+" <"+Email+"> "+Name+" <"+Email+">" {
		t.Errorf("identities %q", got)
	}
	if got := r.Git("rev-parse", "--absolute-git-dir"); got != r.Path(".git") {
		t.Errorf("git directory %s, want %s", got, r.Path(".git"))
	}
	if got := r.Git("ls-files"); got != "a/b.txt" {
		t.Errorf("index holds %q", got)
	}
	if out, err := r.Try("config", "--get", "commit.gpgsign"); err == nil {
		t.Errorf("the user's configuration was read: commit.gpgsign=%s", out)
	}
	if got := outer.Git("rev-list", "--count", "HEAD"); got != "1" {
		t.Errorf("the outer repository has %s commits", got)
	}
}

// TestDatedRepositoriesAreReproducible: two dated repositories built by
// the same commands have the same commit ids, one second apart.
func TestDatedRepositoriesAreReproducible(t *testing.T) {
	build := func() *Repo {
		r := New(t).Dated()
		r.Write("f", "1\n")
		r.Commit("one")
		r.Write("f", "2\n")
		r.Commit("two")
		return r
	}
	a, b := build(), build()
	if x, y := a.Git("rev-parse", "HEAD"), b.Git("rev-parse", "HEAD"); x != y {
		t.Errorf("the same commands made %s and %s", x, y)
	}
	dates := strings.Fields(a.Git("log", "--format=%ct %at"))
	if len(dates) != 4 || dates[0] != dates[1] || dates[2] != dates[3] || dates[0] <= dates[2] {
		t.Errorf("dates (committer, author; newest first): %v", dates)
	}
	undated := New(t)
	undated.Commit("now")
	if got := undated.Git("log", "-1", "--format=%ct"); got == dates[0] || got == dates[2] {
		t.Errorf("an undated repository commits at %s", got)
	}
}

// TestCommitAtAndFailures: CommitAt dates both sides of a commit and
// takes an identity; a failing command reports git's own words.
func TestCommitAtAndFailures(t *testing.T) {
	r := New(t)
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	id := r.CommitAt("dated", at, "GIT_AUTHOR_NAME=Agent")
	if got := r.Git("log", "-1", "--format=%an %at %ct", id); got != "Agent 1772355600 1772355600" {
		t.Errorf("got %q", got)
	}
	if id := r.GitInput("blob content\n", "hash-object", "-w", "--stdin"); r.Git("cat-file", "blob", id) != "blob content" {
		t.Errorf("stdin did not reach git")
	}
	_, err := r.Try("rev-parse", "--verify", "no-such-branch")
	if err == nil || !strings.Contains(err.Error(), "git rev-parse --verify no-such-branch") || !strings.Contains(err.Error(), "fatal:") {
		t.Errorf("error %v", err)
	}
	r.Write("gone", "x")
	r.Remove("gone")
	if _, err := os.Stat(r.Path("gone")); !os.IsNotExist(err) {
		t.Errorf("Remove left the file: %v", err)
	}
}

// TestCopyTreeKeepsLinksAndModes copies a git directory and reads the
// copy with git.
func TestCopyTreeKeepsLinksAndModes(t *testing.T) {
	r := New(t)
	r.Write("run.sh", "#!/bin/sh\n")
	if err := os.Chmod(r.Path("run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("run.sh", r.Path("link")); err != nil {
		t.Fatal(err)
	}
	id := r.Commit("files")
	dst := filepath.Join(t.TempDir(), "copy")
	if err := CopyTree(r.Dir, dst); err != nil {
		t.Fatal(err)
	}
	c := At(t, dst)
	if got := c.Git("rev-parse", "HEAD"); got != id {
		t.Errorf("the copy's HEAD is %s, want %s", got, id)
	}
	if got := c.Git("status", "--porcelain"); got != "" {
		t.Errorf("the copy's work tree differs: %q", got)
	}
	if link, err := os.Readlink(c.Path("link")); err != nil || link != "run.sh" {
		t.Errorf("link %q, %v", link, err)
	}
	if err := CopyTree(r.Dir, dst); err == nil {
		t.Error("copying onto an existing directory did not fail")
	}
}
