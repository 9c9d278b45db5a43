package hooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func gitInit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func whats(actions []Action) string {
	var s []string
	for _, a := range actions {
		s = append(s, a.Hook+"="+a.What)
	}
	return strings.Join(s, " ")
}

func TestInstallAndUninstall(t *testing.T) {
	dir := t.TempDir()
	gitInit(t, dir, "init", "-q")
	acts, err := Install(dir, false)
	if err != nil || whats(acts) != "pre-commit=installed commit-msg=installed pre-push=installed" {
		t.Fatalf("%s %v", whats(acts), err)
	}
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	if fi, err := os.Stat(hook); err != nil || fi.Mode()&0o111 == 0 {
		t.Fatalf("hook not executable: %v", err)
	}
	if acts, _ := Install(dir, false); whats(acts) != "pre-commit=unchanged commit-msg=unchanged pre-push=unchanged" {
		t.Errorf("second install: %s", whats(acts))
	}
	if acts, _ := Uninstall(dir); whats(acts) != "pre-commit=removed commit-msg=removed pre-push=removed" {
		t.Errorf("uninstall: %s", whats(acts))
	}
	if _, err := os.Stat(hook); !os.IsNotExist(err) {
		t.Error("uninstall left the hook")
	}
}

func TestForeignHooksAreKept(t *testing.T) {
	dir := t.TempDir()
	gitInit(t, dir, "init", "-q")
	hook := filepath.Join(dir, ".git", "hooks", "pre-commit")
	foreign := "#!/bin/sh\necho mine\n"
	os.WriteFile(hook, []byte(foreign), 0o755)
	acts, err := Install(dir, false)
	if err != nil || !strings.Contains(whats(acts), "pre-commit=skipped") {
		t.Fatalf("%s %v", whats(acts), err)
	}
	if data, _ := os.ReadFile(hook); string(data) != foreign {
		t.Fatal("a foreign hook was overwritten without --force")
	}
	if acts, _ := Install(dir, true); !strings.Contains(whats(acts), "pre-commit=replaced") {
		t.Fatalf("--force: %s", whats(acts))
	}
	if data, _ := os.ReadFile(hook + ".small-hook-backup"); string(data) != foreign {
		t.Fatal("no backup of the foreign hook")
	}
	if acts, _ := Uninstall(dir); !strings.Contains(whats(acts), "pre-commit=restored") {
		t.Fatalf("uninstall: %s", whats(acts))
	}
	if data, _ := os.ReadFile(hook); string(data) != foreign {
		t.Fatal("uninstall did not restore the foreign hook")
	}
	os.WriteFile(filepath.Join(dir, ".git", "hooks", "commit-msg"), []byte(foreign), 0o755)
	Uninstall(dir)
	if data, _ := os.ReadFile(filepath.Join(dir, ".git", "hooks", "commit-msg")); string(data) != foreign {
		t.Fatal("uninstall removed a foreign hook")
	}
}

func TestHooksPathAndWorktrees(t *testing.T) {
	dir := t.TempDir()
	gitInit(t, dir, "init", "-q")
	gitInit(t, dir, "config", "core.hooksPath", "ci/hooks")
	if _, err := Install(dir, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "ci", "hooks", "commit-msg")); err != nil {
		t.Fatalf("core.hooksPath not honoured: %v", err)
	}
	repo := t.TempDir()
	gitInit(t, repo, "init", "-q")
	gitInit(t, repo, "commit", "-q", "--allow-empty", "-m", "one")
	wt := filepath.Join(t.TempDir(), "wt")
	gitInit(t, repo, "worktree", "add", "-q", wt)
	if _, err := Install(filepath.Join(wt), false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(repo, ".git", "hooks", "pre-push")); err != nil {
		t.Fatalf("worktree install did not use the common hooks directory: %v", err)
	}
}
