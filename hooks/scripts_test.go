package hooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const zeros = "0000000000000000000000000000000000000000"

// runHook runs an installed hook script in dir with the given PATH entry,
// extra environment, arguments and standard input; it returns the exit
// code and the standard error.
func runHook(t *testing.T, dir, hook string, env []string, stdin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(filepath.Join(dir, ".git", "hooks", hook), args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin = strings.NewReader(stdin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatalf("running %s: %v", hook, err)
	}
	return 0, stderr.String()
}

// pushRepo is a repository with commits a <- b <- c on main, a
// remote-tracking branch origin/main at a, and origin/HEAD pointing to it;
// the remote "plain" has no remote-tracking refs at all.
type pushRepo struct {
	dir, a, b, c string
}

func newPushRepo(t *testing.T) pushRepo {
	t.Helper()
	dir := t.TempDir()
	git(t, dir, nil, "init", "-q", "-b", "main")
	var shas []string
	for _, msg := range []string{"a", "b", "c"} {
		git(t, dir, nil, "commit", "-q", "--allow-empty", "-m", msg)
		shas = append(shas, git(t, dir, nil, "rev-parse", "HEAD"))
	}
	git(t, dir, nil, "update-ref", "refs/remotes/origin/main", shas[0])
	git(t, dir, nil, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	return pushRepo{dir: dir, a: shas[0], b: shas[1], c: shas[2]}
}

func TestPrePushChecksEachPushedRef(t *testing.T) {
	isolate(t)
	r := newPushRepo(t)
	if _, err := Install(r.dir, false, os.Getenv); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, remote, stdin string
		fail                bool
		want                []string
		code                int
	}{
		{"deleting a branch checks nothing", "origin",
			"(delete) " + zeros + " refs/heads/old " + r.b + "\n", false, nil, 0},
		{"an existing branch: the commits the remote lacks, against its previous tip", "origin",
			"refs/heads/main " + r.c + " refs/heads/main " + r.a + "\n", false,
			[]string{"check --previous " + r.a + " --head " + r.c}, 0},
		{"a new branch: what it adds to the remote's default branch", "origin",
			"refs/heads/topic " + r.c + " refs/heads/topic " + zeros + "\n", false,
			[]string{"check --base " + r.a + " --head " + r.c}, 0},
		{"a new branch on a remote without a default branch: the whole history", "plain",
			"refs/heads/topic " + r.b + " refs/heads/topic " + zeros + "\n", false,
			[]string{"check --history --head " + r.b}, 0},
		{"several refs: every one is checked and a failure fails the push", "origin",
			"refs/heads/main " + r.c + " refs/heads/main " + r.a + "\n" +
				"refs/heads/topic " + r.b + " refs/heads/topic " + zeros + "\n", true,
			[]string{"check --previous " + r.a + " --head " + r.c, "check --base " + r.a + " --head " + r.b}, 1},
		{"a refused check refuses the push", "origin",
			"refs/heads/main " + r.c + " refs/heads/main " + r.b + "\n", true,
			[]string{"check --previous " + r.b + " --head " + r.c}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bin, log := t.TempDir(), filepath.Join(t.TempDir(), "calls")
			fakeBinary(t, bin, log)
			env := []string{minimalPath(t, bin), "HOME=" + os.Getenv("HOME"), "GIT_CONFIG_NOSYSTEM=1",
				"GIT_CONFIG_GLOBAL=" + os.Getenv("GIT_CONFIG_GLOBAL")}
			if c.fail {
				env = append(env, "FAKE_EXIT=1")
			}
			code, stderr := runHook(t, r.dir, "pre-push", env, c.stdin, c.remote, "/srv/"+c.remote+".git")
			if code != c.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.code, stderr)
			}
			if got := calls(t, log); strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("small-hook called as\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}

func TestHooksCallTheCheck(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	if _, err := Install(dir, false, os.Getenv); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		hook string
		args []string
		want string
	}{
		{"pre-commit", nil, "check"},
		{"commit-msg", []string{".git/COMMIT_EDITMSG"}, "check --commit-msg .git/COMMIT_EDITMSG"},
	} {
		for _, exit := range []int{0, 1, 2} {
			bin, log := t.TempDir(), filepath.Join(t.TempDir(), "calls")
			fakeBinary(t, bin, log)
			env := []string{minimalPath(t, bin), "FAKE_EXIT=" + string(rune('0'+exit))}
			code, stderr := runHook(t, dir, c.hook, env, "", c.args...)
			if code != exit {
				t.Errorf("%s: exit %d when small-hook exits %d; stderr:\n%s", c.hook, code, exit, stderr)
			}
			if got := calls(t, log); len(got) != 1 || got[0] != c.want {
				t.Errorf("%s: small-hook called as %q, want %q", c.hook, got, c.want)
			}
		}
	}
}

func TestMissingBinaryRefusesWithInstructions(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	if _, err := Install(dir, false, os.Getenv); err != nil {
		t.Fatal(err)
	}
	env := []string{minimalPath(t)}
	for _, hook := range Names() {
		code, stderr := runHook(t, dir, hook, env, "refs/heads/main "+zeros[:39]+"1 refs/heads/main "+zeros+"\n", "origin", "url")
		if code != 1 || !strings.Contains(stderr, "go install github.com/small-hook/small-hook/cmd/small-hook@latest") {
			t.Errorf("%s without small-hook: exit %d, stderr %q; want exit 1 and how to install it", hook, code, stderr)
		}
	}
}

// TestBinaryFoundWhereGoInstallPutsIt uses a fake go that answers
// `go env GOBIN` and `go env GOPATH` from the environment.
func TestBinaryFoundWhereGoInstallPutsIt(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	if _, err := Install(dir, false, os.Getenv); err != nil {
		t.Fatal(err)
	}
	goDir := t.TempDir()
	writeFile(t, filepath.Join(goDir, "go"),
		"#!/bin/sh\ncase \"$2\" in GOBIN) echo \"$FAKE_GOBIN\" ;; GOPATH) echo \"$FAKE_GOPATH\" ;; esac\n", 0o755)
	gopath := t.TempDir()
	for _, c := range []struct {
		name, gobin, gopath, binDir string
	}{
		{"GOBIN", filepath.Join(gopath, "gobin"), "", filepath.Join(gopath, "gobin")},
		{"first GOPATH entry", "", gopath + string(os.PathListSeparator) + "/elsewhere", filepath.Join(gopath, "bin")},
	} {
		t.Run(c.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "calls")
			fakeBinary(t, c.binDir, log)
			defer os.Remove(filepath.Join(c.binDir, "small-hook"))
			env := []string{minimalPath(t, goDir), "FAKE_GOBIN=" + c.gobin, "FAKE_GOPATH=" + c.gopath}
			code, stderr := runHook(t, dir, "pre-commit", env, "")
			if code != 0 || strings.Join(calls(t, log), "\n") != "check" {
				t.Errorf("exit %d, calls %q, stderr %q", code, calls(t, log), stderr)
			}
		})
	}
}
