package hooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstallInABareRepositoryWritesThePreReceiveHook: a bare repository
// receives pushes and makes no commits: it gets the pre-receive hook and
// no client hook; uninstall removes it.
func TestInstallInABareRepositoryWritesThePreReceiveHook(t *testing.T) {
	isolate(t)
	server := filepath.Join(t.TempDir(), "server.git")
	git(t, t.TempDir(), nil, "init", "-q", "--bare", server)
	acts, err := Install(server, Options{Getenv: os.Getenv})
	if err != nil || whats(acts) != "pre-receive=installed" || acts[0].Path != filepath.Join(server, "hooks", "pre-receive") {
		t.Fatalf("install: %s %v", whats(acts), err)
	}
	if acts, err := Install(server, Options{Getenv: os.Getenv}); err != nil || whats(acts) != "pre-receive=unchanged" {
		t.Fatalf("second install: %s %v", whats(acts), err)
	}
	hook := exec.Command(filepath.Join(server, "hooks", "pre-receive"))
	hook.Dir, hook.Env, hook.Stdin = server, []string{minimalPath(t)}, strings.NewReader("")
	if out, err := hook.CombinedOutput(); err == nil || !strings.Contains(string(out), "every push is refused until it is installed again") {
		t.Errorf("the pre-receive hook without small-hook: %v\n%s", err, out)
	}
	if acts, err := Uninstall(server, os.Getenv); err != nil || whats(acts) != "pre-receive=removed" {
		t.Fatalf("uninstall: %s %v", whats(acts), err)
	}
}

// TestHooksRunTheInstallingBinary: the hooks run small-hook from where
// install ran it, whatever PATH the client gives them (a GUI client or an
// IDE); when that binary is gone, they look on PATH.
func TestHooksRunTheInstallingBinary(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	installed, log := filepath.Join(t.TempDir(), "it's here"), filepath.Join(t.TempDir(), "calls")
	fakeBinary(t, installed, log)
	if _, err := Install(dir, Options{Binary: filepath.Join(installed, "small-hook"), Getenv: os.Getenv}); err != nil {
		t.Fatal(err)
	}
	for _, hook := range Names() {
		if code, stderr := runHook(t, dir, hook, []string{minimalPath(t)}, "", "origin", "url"); code != 0 {
			t.Errorf("%s with a PATH that lacks small-hook: exit %d\n%s", hook, code, stderr)
		}
	}
	if got := calls(t, log); strings.Join(got, "\n") != "check\ncheck --commit-msg origin\ncheck --pre-push origin" {
		t.Errorf("the installed binary was called as %q", got)
	}
	if err := os.RemoveAll(installed); err != nil {
		t.Fatal(err)
	}
	onPath, log2 := t.TempDir(), filepath.Join(t.TempDir(), "calls")
	fakeBinary(t, onPath, log2)
	if code, stderr := runHook(t, dir, "pre-commit", []string{minimalPath(t, onPath)}, ""); code != 0 || strings.Join(calls(t, log2), "\n") != "check" {
		t.Errorf("with the installed binary gone, PATH's was not used: exit %d\n%s", code, stderr)
	}
}

// TestChainedHookKeepsRunning: a hook install --force takes the place of
// runs first with the same arguments and standard input, and its failure
// fails the hook; uninstall puts it back as it was, mode included.
func TestChainedHookKeepsRunning(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	hooksDir := filepath.Join(dir, ".git", "hooks")
	seen := filepath.Join(t.TempDir(), "seen")
	userHook := "#!/bin/sh\necho \"$0 $*\" >> '" + seen + "'\ncat >> '" + seen + "'\nexit ${USER_HOOK_EXIT:-0}\n"
	for _, name := range Names() {
		writeFile(t, filepath.Join(hooksDir, name), userHook, 0o750)
	}
	if _, err := Install(dir, Options{Force: true, Getenv: os.Getenv}); err != nil {
		t.Fatal(err)
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "calls")
	fakeBinary(t, bin, log)
	input := "refs/heads/main " + zeros[:39] + "1 refs/heads/main " + zeros + "\n"
	code, stderr := runHook(t, dir, "pre-push", []string{minimalPath(t, bin)}, input, "origin", "/srv/origin.git")
	if code != 0 {
		t.Fatalf("pre-push: exit %d\n%s", code, stderr)
	}
	chained := filepath.Join(hooksDir, "pre-push.small-hook-chained")
	if got := readFile(t, seen); got != chained+" origin /srv/origin.git\n"+input {
		t.Errorf("the chained hook saw %q", got)
	}
	if got := readFile(t, log+".stdin"); got != input {
		t.Errorf("small-hook read %q after the chained hook", got)
	}
	code, _ = runHook(t, dir, "pre-commit", []string{minimalPath(t, bin), "USER_HOOK_EXIT=3"}, "")
	if code != 3 || calls(t, log)[len(calls(t, log))-1] != "check" {
		t.Errorf("a failing chained hook: exit %d, small-hook called as %q; want exit 3 and small-hook run too", code, calls(t, log))
	}
	if _, err := Uninstall(dir, os.Getenv); err != nil {
		t.Fatal(err)
	}
	for _, name := range Names() {
		path := filepath.Join(hooksDir, name)
		fi, err := os.Stat(path)
		if err != nil || readFile(t, path) != userHook || fi.Mode().Perm() != 0o750 {
			t.Errorf("%s is not back as it was: %v", name, err)
		}
	}
}
