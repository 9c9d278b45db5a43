package signature

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/small-hook/small-hook/internal/gittest"
)

// tool is a command-line environment for git, ssh-keygen and gpg in a
// temporary directory, isolated from the machine's and the user's
// configuration.
type tool struct {
	t   testing.TB
	dir string
	env []string
}

func newTool(t testing.TB) *tool {
	t.Helper()
	for _, bin := range []string{"git", "ssh-keygen", "gpg"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Fatalf("%s is needed by the signature tests: %v", bin, err)
		}
	}
	dir := t.TempDir()
	env := append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LC_ALL=C"}, gittest.Isolation()...)
	if tz, ok := os.LookupEnv("TZ"); ok {
		env = append(env, "TZ="+tz)
	}
	return &tool{t: t, dir: dir, env: env}
}

// run runs a command in dir with extra environment and stdin, and returns
// its stdout and whether it exited 0.
func (tl *tool) run(dir string, extraEnv []string, stdin []byte, name string, args ...string) (string, bool) {
	tl.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, tl.env...), extraEnv...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		tl.t.Fatalf("%s %v: %v", name, args, err)
	}
	return out.String(), err == nil
}

// must runs a command that has to succeed.
func (tl *tool) must(dir string, extraEnv []string, stdin []byte, name string, args ...string) string {
	tl.t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, tl.env...), extraEnv...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		tl.t.Fatalf("%s %v: %v\n%s", name, args, err, msg)
	}
	return string(out)
}

// git runs git in dir under the tool's environment with extra
// environment and stdin, and returns its output as git wrote it; a
// failure fails the test.
func (tl *tool) git(dir string, extraEnv []string, stdin []byte, args ...string) string {
	tl.t.Helper()
	out, err := gittest.Run(dir, append(append([]string{}, tl.env...), extraEnv...), stdin, args...)
	if err != nil {
		tl.t.Fatal(err)
	}
	return out
}

// sshKey generates an unencrypted ed25519 key and returns the private
// key's path and the public key line.
func (tl *tool) sshKey(name string) (string, string) {
	tl.t.Helper()
	path := filepath.Join(tl.dir, name)
	tl.must(tl.dir, nil, nil, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path)
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		tl.t.Fatal(err)
	}
	return path, strings.TrimSpace(string(pub))
}

// write writes a file in the tool's directory and returns its path.
func (tl *tool) write(name, content string) string {
	tl.t.Helper()
	path := filepath.Join(tl.dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		tl.t.Fatal(err)
	}
	return path
}

// repo creates a repository with one unsigned commit and returns its path.
func (tl *tool) repo(name string) string {
	tl.t.Helper()
	dir := filepath.Join(tl.dir, name)
	tl.git(tl.dir, nil, nil, "init", "-q", dir)
	tl.git(dir, nil, nil, "commit", "-q", "--allow-empty", "-m", "root")
	return dir
}

// commit makes an empty commit in repo with extra git config (-c k=v),
// signed with -S when sign is set, committed by email at date (git's date
// formats; "" for now), and returns its id.
func (tl *tool) commit(repo string, sign bool, email, date, msg string, env []string, config ...string) string {
	tl.t.Helper()
	var args []string
	for _, c := range config {
		args = append(args, "-c", c)
	}
	args = append(args, "commit", "-q", "--allow-empty", "-m", msg)
	if sign {
		args = append(args, "-S")
	}
	env = append(append([]string{}, env...), "GIT_COMMITTER_EMAIL="+email)
	if date != "" {
		env = append(env, "GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_DATE="+date)
	}
	tl.git(repo, env, nil, args...)
	return strings.TrimSpace(tl.git(repo, nil, nil, "rev-parse", "HEAD"))
}

// sshCommit makes a commit signed with the SSH key at keyPath.
func (tl *tool) sshCommit(repo, keyPath, email, date, msg string) string {
	tl.t.Helper()
	return tl.commit(repo, true, email, date, msg, nil, "gpg.format=ssh", "user.signingkey="+keyPath)
}

// writeCommit stores a raw commit object and returns its id.
func (tl *tool) writeCommit(repo, raw string) string {
	tl.t.Helper()
	return strings.TrimSpace(tl.git(repo, nil, []byte(raw), "hash-object", "-t", "commit", "-w", "--stdin"))
}

// readCommit reads a commit back with go-git, as small-hook does: the
// signature from PGPSignature, the payload from EncodeWithoutSignature.
func readCommit(t testing.TB, repo, id string) Commit {
	t.Helper()
	r, err := git.PlainOpen(repo)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.CommitObject(plumbing.NewHash(id))
	if err != nil {
		t.Fatal(err)
	}
	return commitFromGoGit(t, c.PGPSignature, c.EncodeWithoutSignature, c.Committer.Email, c.Committer.When)
}

func commitFromGoGit(t testing.TB, sig string, encode func(plumbing.EncodedObject) error, email string, when time.Time) Commit {
	t.Helper()
	obj := &plumbing.MemoryObject{}
	if err := encode(obj); err != nil {
		t.Fatal(err)
	}
	rd, err := obj.Reader()
	if err != nil {
		t.Fatal(err)
	}
	payload, err := io.ReadAll(rd)
	if err != nil {
		t.Fatal(err)
	}
	return Commit{Signature: []byte(sig), Payload: payload, CommitterEmail: email, CommitterTime: when}
}

// gitVerdict is what git itself says of a commit.
type gitVerdict struct {
	ok     bool   // git verify-commit exited 0
	status string // %G?
	signer string // %GS
}

func (tl *tool) gitVerify(repo, id string, env []string, config ...string) gitVerdict {
	tl.t.Helper()
	var args []string
	for _, c := range config {
		args = append(args, "-c", c)
	}
	_, err := gittest.Run(repo, append(append([]string{}, tl.env...), env...), nil, append(args, "verify-commit", id)...)
	ok := err == nil
	out := tl.git(repo, env, nil, append(args, "log", "-1", "--format=%G?%x00%GS", id)...)
	status, signer, _ := strings.Cut(strings.TrimRight(out, "\n"), "\x00")
	return gitVerdict{ok: ok, status: status, signer: signer}
}

// sshKeygenVerify runs what git runs to verify an SSH signature, with the
// committer e-mail as the principal: ssh-keygen -Y verify.
func (tl *tool) sshKeygenVerify(allowed string, c Commit) bool {
	tl.t.Helper()
	sigFile := tl.write("verify.sig", string(c.Signature))
	_, ok := tl.run(tl.dir, nil, c.Payload, "ssh-keygen", "-Y", "verify", "-n", "git", "-f", allowed,
		"-I", c.CommitterEmail, "-s", sigFile, "-Overify-time="+c.CommitterTime.UTC().Format("20060102150405")+"Z")
	return ok
}

// rawCommit returns the raw object of a commit as git stores it.
func (tl *tool) rawCommit(repo, id string) string {
	tl.t.Helper()
	return tl.git(repo, nil, nil, "cat-file", "commit", id)
}

// withSignature inserts a gpgsig header holding sig after the committer
// line of a raw commit without one.
func withSignature(raw, sig string) string {
	head, body, _ := strings.Cut(raw, "\n\n")
	header := "gpgsig " + strings.ReplaceAll(strings.TrimRight(sig, "\n"), "\n", "\n ")
	return head + "\n" + header + "\n\n" + body
}
