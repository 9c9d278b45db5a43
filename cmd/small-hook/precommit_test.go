//go:build e2e

package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// preCommitRepo returns a workspace repository whose .pre-commit-config.yaml
// uses the hooks of this checkout's HEAD commit (the framework installs
// hooks from commits only), installed for the pre-commit and pre-push
// stages, with a bare remote "origin".
func preCommitRepo(t *testing.T, env []string) *testRepo {
	t.Helper()
	checkout := repoAt(t, ".").Git("rev-parse", "--show-toplevel")
	rev := repoAt(t, checkout).Git("rev-parse", "HEAD")
	r := workspaceRepo(t)
	r.Write(".pre-commit-config.yaml", "repos:\n- repo: "+checkout+"\n  rev: "+rev+
		"\n  hooks:\n  - id: small-hook\n  - id: small-hook-push\n")
	r.Commit("pre-commit config")
	if out, ok := runIn(t, r.Dir, env, "pre-commit", "install", "--hook-type", "pre-commit", "--hook-type", "pre-push"); !ok {
		t.Fatalf("pre-commit install: %s", out)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	return r
}

// TestPreCommitFrameworkWorkflows runs Debian's pre-commit 3.0.4 through
// git: a first push (no range: every commit from the root), a force-push
// (compared with the tip it replaces), `pre-commit run --all-files` and
// `--files` over a committed mistake, and a deletion in the commit stage.
func TestPreCommitFrameworkWorkflows(t *testing.T) {
	env := preCommitEnv(t)
	// pre-commit builds the hook in a GOPATH of its own; the machine's
	// module cache spares it downloading every module again.
	if cache, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil && len(strings.TrimSpace(string(cache))) > 0 {
		env = append(env, "GOMODCACHE="+strings.TrimSpace(string(cache)))
	}
	r := preCommitRepo(t, env)
	gitRun := func(args ...string) (string, bool) {
		t.Helper()
		return runIn(t, r.Dir, env, "git", args...)
	}
	preCommit := func(args ...string) (string, bool) {
		t.Helper()
		return runIn(t, r.Dir, env, "pre-commit", args...)
	}

	if out, ok := gitRun("push", "origin", "main"); !ok {
		t.Fatalf("the first push was refused:\n%s", out)
	}
	r.Write(progressPath, r.Read(progressPath)+progressEntry("first append", 21))
	if out, ok := gitRun("commit", "-qam", "first append"); !ok {
		t.Fatalf("a clean append was refused:\n%s", out)
	}
	r.Write(progressPath, r.Read(progressPath)+progressEntry("second append", 22))
	if out, ok := gitRun("commit", "-qam", "second append"); !ok {
		t.Fatalf("a clean append was refused:\n%s", out)
	}
	old := r.Git("rev-parse", "HEAD")
	if out, ok := gitRun("push", "origin", "main"); !ok {
		t.Fatalf("two appends were refused:\n%s", out)
	}
	r.Git("reset", "-q", "--hard", "HEAD~2")
	r.Write(progressPath, r.Read(progressPath)+progressEntry("a different append", 23))
	if out, ok := gitRun("commit", "-qam", "a different append"); !ok {
		t.Fatalf("a clean append was refused:\n%s", out)
	}
	out, ok := gitRun("push", "--force", "origin", "main")
	refusedAsRewrite(t, "a force-push through pre-commit's pre-push stage", out, ok, old, r.Git("rev-parse", "HEAD"))

	// A mistake committed with --no-verify, as an agent might.
	r.Write(progressPath, strings.Replace(r.Read(progressPath), `small_version: "1.0.0"`, `small_version: "2.0"`, 1))
	if out, ok := gitRun("commit", "-q", "--no-verify", "-am", "bump the version"); !ok {
		t.Fatal(out)
	}
	if out, ok := preCommit("run"); !ok {
		t.Fatalf("pre-commit run with nothing staged failed:\n%s", out)
	}
	if out, ok := preCommit("run", "--all-files"); ok || !strings.Contains(out, "small/version") {
		t.Fatalf("pre-commit run --all-files passed over a committed small_version \"2.0\":\n%s", out)
	}
	if out, ok := preCommit("run", "--all-files", "--hook-stage", "push"); ok || !strings.Contains(out, "small/version") {
		t.Fatalf("pre-commit run --all-files --hook-stage push passed over a committed small_version \"2.0\" (or found no range):\n%s", out)
	}
	if out, ok := preCommit("run", "--files", progressPath); ok || !strings.Contains(out, "small/version") {
		t.Fatalf("pre-commit run --files %s passed:\n%s", progressPath, out)
	}
	if out, ok := preCommit("run", "--files", ".small/intent.small.yml", "README.md"); !ok {
		t.Fatalf("pre-commit run --files over clean files failed:\n%s", out)
	}

	// The commit stage still sees a deletion, which pre-commit never names.
	r.Git("rm", "-q", ".small/plan.small.yml")
	if out, ok := gitRun("commit", "-qm", "drop the plan"); ok || !strings.Contains(out, "small/required") {
		t.Fatalf("pre-commit let a deletion through git commit:\n%s", out)
	}
}
