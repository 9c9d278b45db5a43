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

// TestStdinHooksHandTheirInputOn: the pre-push hook hands git's list of
// refs to `small-hook check --pre-push REMOTE`, which judges each ref, and
// the pre-receive hook (installed in a bare repository) hands the ref
// updates to `small-hook check --pre-receive`; small-hook's exit code is
// the hook's.
func TestStdinHooksHandTheirInputOn(t *testing.T) {
	isolate(t)
	client := newRepo(t)
	server := filepath.Join(t.TempDir(), "server.git")
	git(t, client, nil, "init", "-q", "--bare", server)
	for _, dir := range []string{client, server} {
		if _, err := Install(dir, Options{Getenv: os.Getenv}); err != nil {
			t.Fatal(err)
		}
	}
	input := "refs/heads/main " + zeros[:39] + "1 refs/heads/main " + zeros + "\nrefs/heads/topic " + zeros[:39] + "2 refs/heads/topic " + zeros + "\n"
	for _, c := range []struct {
		hookPath string
		args     []string
		want     string
	}{
		{filepath.Join(client, ".git", "hooks", "pre-push"), []string{"origin", "/srv/origin.git"}, "check --pre-push origin"},
		{filepath.Join(server, "hooks", "pre-receive"), nil, "check --pre-receive"},
	} {
		for _, exit := range []int{0, 1, 2} {
			bin, log := t.TempDir(), filepath.Join(t.TempDir(), "calls")
			fakeBinary(t, bin, log)
			cmd := exec.Command(c.hookPath, c.args...)
			cmd.Dir = filepath.Dir(filepath.Dir(c.hookPath))
			cmd.Env = []string{minimalPath(t, bin), "FAKE_EXIT=" + string(rune('0'+exit))}
			cmd.Stdin = strings.NewReader(input)
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != exit {
				t.Errorf("%s: exit %d when small-hook exits %d:\n%s", c.hookPath, code, exit, out)
			}
			if got := calls(t, log); len(got) != 1 || got[0] != c.want {
				t.Errorf("%s: small-hook called as %q, want %q", c.hookPath, got, c.want)
			}
			if got := readFile(t, log+".stdin"); got != input {
				t.Errorf("%s: small-hook read %q, want git's input %q", c.hookPath, got, input)
			}
		}
	}
}

func TestHooksCallTheCheck(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	if _, err := Install(dir, Options{Getenv: os.Getenv}); err != nil {
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
	if _, err := Install(dir, Options{Getenv: os.Getenv}); err != nil {
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
	if _, err := Install(dir, Options{Getenv: os.Getenv}); err != nil {
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
