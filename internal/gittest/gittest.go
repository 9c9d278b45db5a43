// Package gittest builds real git repositories for tests and benchmarks
// with the git CLI. Every package's tests make their repositories through
// it, so that each git command runs isolated from the machine's and the
// user's git configuration and from a repository the environment names,
// under a fixed identity, and fails the test with git's own words when it
// fails.
package gittest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Name and Email are the identity every command authors and commits with
// unless its environment says otherwise.
const (
	Name  = "Test Human"
	Email = "human@example.com"
)

// firstDate is the date of a dated repository's first command: 2023-11-14.
const firstDate = 1700000000

// Isolation is the environment that cuts git off from the system's and
// the user's configuration files and gives it the fixed identity.
func Isolation() []string {
	return []string{
		"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=" + Name, "GIT_AUTHOR_EMAIL=" + Email,
		"GIT_COMMITTER_NAME=" + Name, "GIT_COMMITTER_EMAIL=" + Email,
	}
}

// Env returns the environment git runs with: the process's own without
// any GIT_* variable (a test run from a git hook inherits GIT_DIR and
// GIT_INDEX_FILE, an agent may export its identity), then Isolation, then
// extra; later entries win.
func Env(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	env = append(env, Isolation()...)
	return append(env, extra...)
}

// Run runs git with args in dir under env, feeding it stdin when not nil,
// and returns its standard output as git wrote it; the error carries git's
// standard error.
func Run(dir string, env []string, stdin []byte, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("git %s: %w\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return out.String(), nil
}

// Repo is a git repository, or a directory to make one in, of a test.
type Repo struct {
	// T is the test every failure fails.
	T testing.TB
	// Dir is the directory every command runs in.
	Dir string
	// Env is added to the environment of every command.
	Env []string
	// clock, when set, is the date of the last command; each command is
	// dated one second after the one before.
	clock int64
}

// New returns a new, empty repository on branch main in a temporary
// directory of the test.
func New(t testing.TB) *Repo {
	t.Helper()
	r := At(t, t.TempDir())
	r.Git("init", "-q", "-b", "main")
	return r
}

// At returns the repository at dir, which need not exist yet (the
// destination of a clone, say).
func At(t testing.TB, dir string) *Repo {
	return &Repo{T: t, Dir: dir}
}

// Dated dates every later command of r one second after the one before,
// from 2023-11-14, so that commits order by date as they were made, and
// their ids are the same on every run; it returns r.
func (r *Repo) Dated() *Repo {
	r.clock = firstDate
	return r
}

// Git runs git in the repository and returns its output without the
// surrounding white space; a failure fails the test.
func (r *Repo) Git(args ...string) string {
	r.T.Helper()
	return r.GitEnv(nil, args...)
}

// GitEnv is Git with extra environment.
func (r *Repo) GitEnv(extra []string, args ...string) string {
	r.T.Helper()
	out, err := r.run(extra, nil, args...)
	if err != nil {
		r.T.Fatal(err)
	}
	return strings.TrimSpace(out)
}

// GitInput is Git with stdin as git's standard input: for hash-object,
// fast-import, mktree and the like.
func (r *Repo) GitInput(stdin string, args ...string) string {
	r.T.Helper()
	out, err := r.run(nil, []byte(stdin), args...)
	if err != nil {
		r.T.Fatal(err)
	}
	return strings.TrimSpace(out)
}

// Try runs git in the repository and returns its output and error instead
// of failing the test: for commands that are meant to fail.
func (r *Repo) Try(args ...string) (string, error) {
	return r.run(nil, nil, args...)
}

func (r *Repo) run(extra []string, stdin []byte, args ...string) (string, error) {
	env := Env(r.Env...)
	if r.clock != 0 {
		r.clock++
		date := fmt.Sprintf("@%d +0000", r.clock)
		env = append(env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	}
	return Run(r.Dir, append(env, extra...), stdin, args...)
}

// Path is the file system path of a slash-separated path of the work tree.
func (r *Repo) Path(path string) string {
	return filepath.Join(r.Dir, filepath.FromSlash(path))
}

// Write writes a file of the work tree, creating its directories.
func (r *Repo) Write(path, content string) {
	r.T.Helper()
	full := r.Path(path)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.T.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		r.T.Fatal(err)
	}
}

// Read returns a file of the work tree, which must exist.
func (r *Repo) Read(path string) string {
	r.T.Helper()
	data, err := os.ReadFile(r.Path(path))
	if err != nil {
		r.T.Fatal(err)
	}
	return string(data)
}

// Remove deletes a file of the work tree.
func (r *Repo) Remove(path string) {
	r.T.Helper()
	if err := os.Remove(r.Path(path)); err != nil {
		r.T.Fatal(err)
	}
}

// Commit stages everything and commits it with msg (an empty commit when
// nothing changed); it returns the new commit's id.
func (r *Repo) Commit(msg string) string {
	r.T.Helper()
	return r.CommitEnv(msg, nil)
}

// CommitAt is Commit with the author and committer dates at and extra
// environment (an identity, say).
func (r *Repo) CommitAt(msg string, at time.Time, extra ...string) string {
	r.T.Helper()
	date := at.UTC().Format(time.RFC3339)
	return r.CommitEnv(msg, append([]string{"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date}, extra...))
}

// CommitEnv is Commit with extra environment for the commit.
func (r *Repo) CommitEnv(msg string, extra []string) string {
	r.T.Helper()
	r.Git("add", "-A")
	r.GitEnv(extra, "commit", "-q", "--allow-empty", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}
