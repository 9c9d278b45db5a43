package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTrackedHooksPathAdviceWorks: in a repository whose team commits its
// hooks (core.hooksPath .githooks), install refuses to write small-hook's
// own hooks there and says what to do instead; following it exactly — each
// team hook runs the command the advice names, committed — every clone
// with small-hook on PATH is checked: a rewrite and an agent's edit of the
// intent are refused at the commit, a rewrite committed with --no-verify at
// the push, and the team's own hook still runs.
func TestTrackedHooksPathAdviceWorks(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	bin, env := withBinary(t)
	ran := filepath.Join(t.TempDir(), "ran")
	r.Write(".githooks/pre-commit", "#!/bin/sh\necho team >> '"+ran+"'\n")
	if err := os.Chmod(r.Path(".githooks/pre-commit"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.Commit("team hooks")
	r.Git("config", "core.hooksPath", ".githooks")

	out, ok := runIn(t, r.Dir, env, bin, "install")
	if ok || !strings.Contains(out, "a directory the repository tracks") || !strings.Contains(out, bin) {
		t.Fatalf("install into the team's hooks directory: ok %v\n%s", ok, out)
	}
	if got := r.Git("status", "--porcelain"); got != "" {
		t.Fatalf("install changed the work tree:\n%s", got)
	}
	advice := regexp.MustCompile("(\\.githooks/[a-z-]+) runs `([^`]+)`").FindAllStringSubmatch(out, -1)
	if len(advice) != 3 {
		t.Fatalf("the advice names %d hooks, want 3:\n%s", len(advice), out)
	}
	for _, a := range advice {
		path, command := a[1], a[2]
		script := "#!/bin/sh\n"
		if r.exists(path) {
			script = r.Read(path)
		}
		r.Write(path, script+command+"\n")
		if err := os.Chmod(r.Path(path), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.Git("add", ".githooks")
	r.Git("commit", "-q", "--no-verify", "-m", "call small-hook from the team's hooks")

	rewriteProgress(r)
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "rewrite"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("the team's hooks let a rewrite through:\n%s", out)
	}
	if got := readFile(t, ran); got != "team\n" {
		t.Errorf("the team's own hook ran %q", got)
	}
	r.Git("reset", "-q", "--hard")
	refuseAgentIntentEdit(t, r, env)
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	if out, ok := runIn(t, r.Dir, env, "git", "push", "-q", "origin", "main"); !ok {
		t.Fatalf("a clean push was refused:\n%s", out)
	}
	rewriteProgress(r)
	r.Git("commit", "-q", "--no-verify", "-am", "rewrite")
	if out, ok := runIn(t, r.Dir, env, "git", "push", "-q", "origin", "main"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("the team's pre-push hook let a rewrite through:\n%s", out)
	}
}
