//go:build e2e

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// frameworkRepo returns a workspace repository whose .pre-commit-config.yaml
// lists the given hooks of the snapshot, with the hook types installed
// (pre-commit install reads default_install_hook_types), and a bare remote
// "origin" that already holds main.
func frameworkRepo(t *testing.T, env []string, snapshot *testRepo, hooks, types []string) *testRepo {
	t.Helper()
	r := workspaceRepo(t)
	config := "default_install_hook_types: [" + strings.Join(types, ", ") + "]\nrepos:\n- repo: " + snapshot.Dir + "\n  rev: " + snapshot.Git("rev-parse", "HEAD") + "\n  hooks:\n"
	for _, h := range hooks {
		config += "  - id: " + h + "\n"
	}
	r.Write(".pre-commit-config.yaml", config)
	r.Commit("pre-commit config")
	if out, ok := runIn(t, r.Dir, env, "pre-commit", "install"); !ok {
		t.Fatalf("pre-commit install: %s", out)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	if out, ok := runIn(t, r.Dir, env, "git", "push", "-q", "--no-verify", "origin", "main"); !ok {
		t.Fatal(out)
	}
	return r
}

// TestPreCommitFrameworkSetups commits through Debian's pre-commit 3.0.4
// in the three setups of small-hook's hooks: the recommended one hook at
// the commit-msg stage, both stages, and the commit stage alone. In each,
// the append-only refusal names what works in that setup, and following
// it exactly lets a human's intended rewrite through.
func TestPreCommitFrameworkSetups(t *testing.T) {
	env := preCommitEnv(t)
	snapshot := snapshotWorkingTree(t)
	gitRun := func(r *testRepo, extra []string, args ...string) (string, bool) {
		t.Helper()
		return runIn(t, r.Dir, append(append([]string{}, env...), extra...), "git", args...)
	}

	t.Run("one hook: small-hook-commit-msg", func(t *testing.T) {
		r := frameworkRepo(t, env, snapshot, []string{"small-hook-commit-msg", "small-hook-push"}, []string{"commit-msg", "pre-push"})
		if _, err := os.Stat(filepath.Join(r.Dir, ".git", "hooks", "pre-commit")); !os.IsNotExist(err) {
			t.Fatalf("a pre-commit hook is installed: %v", err)
		}
		r.Write(progressPath, r.Read(progressPath)+appendedEntry)
		if out, ok := gitRun(r, nil, "commit", "-qam", "Record progress"); !ok {
			t.Fatalf("a clean append was refused:\n%s", out)
		}
		// The one hook runs the whole staged check, not ownership alone.
		r.Write(progressPath, strings.Replace(r.Read(progressPath), `small_version: "1.0.0"`, `small_version: "2.0"`, 1))
		if out, ok := gitRun(r, nil, "commit", "-qam", "bump the version"); ok || !strings.Contains(out, "small/version") {
			t.Fatalf("the commit-msg hook let a wrong small_version through:\n%s", out)
		}
		r.Git("checkout", "-q", "--", progressPath)
		rewriteProgress(r)
		r.Git("add", "-A")
		out, ok := gitRun(r, nil, "commit", "-q", "-m", "fix typo")
		if ok || !strings.Contains(out, trailerAdvice) || strings.Contains(out, "SMALL_HOOK_REWRITE") {
			t.Fatalf("want the refusal to name the trailer alone:\n%s", out)
		}
		if out, ok := gitRun(r, nil, "commit", "-q", "-m", "fix typo", "-m", "Small-Rewrite: typo"); !ok {
			t.Fatalf("following the advice failed:\n%s", out)
		}
		if out, ok := gitRun(r, nil, "push", "-q", "origin", "main"); !ok {
			t.Fatalf("the push of the human's intended rewrite was refused:\n%s", out)
		}
	})

	t.Run("both stages", func(t *testing.T) {
		r := frameworkRepo(t, env, snapshot, []string{"small-hook", "small-hook-commit-msg"}, []string{"pre-commit", "commit-msg"})
		rewriteProgress(r)
		r.Git("add", "-A")
		out, ok := gitRun(r, nil, "commit", "-q", "-m", "fix typo")
		if ok || !strings.Contains(out, trailerAdvice) || strings.Contains(out, "SMALL_HOOK_REWRITE") {
			t.Fatalf("want the commit-msg stage to refuse and name the trailer alone:\n%s", out)
		}
		if n := strings.Count(out, "error small/append-only"); n != 1 {
			t.Fatalf("the rewrite is reported %d times, want once (by the commit-msg stage):\n%s", n, out)
		}
		if out, ok := gitRun(r, nil, "commit", "-q", "-m", "fix typo", "-m", "Small-Rewrite: typo"); !ok {
			t.Fatalf("following the advice failed:\n%s", out)
		}
	})

	t.Run("the commit stage alone", func(t *testing.T) {
		r := frameworkRepo(t, env, snapshot, []string{"small-hook", "small-hook-push"}, []string{"pre-commit", "pre-push"})
		rewriteProgress(r)
		r.Git("add", "-A")
		out, ok := gitRun(r, nil, "commit", "-q", "-m", "fix typo")
		envAdvice := `SMALL_HOOK_REWRITE=<reason> ` + trailerAdvice
		install := "listing the small-hook-commit-msg hook in .pre-commit-config.yaml and running pre-commit install --hook-type commit-msg"
		if ok || !strings.Contains(out, envAdvice) || !strings.Contains(out, install) {
			t.Fatalf("want the refusal to name SMALL_HOOK_REWRITE and how to add the commit-msg hook:\n%s", out)
		}
		if out, ok := gitRun(r, []string{"SMALL_HOOK_REWRITE=typo"}, "commit", "-q", "-m", "fix typo", "-m", "Small-Rewrite: typo"); !ok {
			t.Fatalf("following the advice failed:\n%s", out)
		}
		if out, ok := gitRun(r, nil, "push", "-q", "origin", "main"); !ok {
			t.Fatalf("the push of the human's intended rewrite was refused:\n%s", out)
		}
		// The other way the advice names: add the commit-msg hook; then the
		// trailer alone decides.
		r.Write(".pre-commit-config.yaml", strings.Replace(r.Read(".pre-commit-config.yaml"), "  - id: small-hook\n", "  - id: small-hook\n  - id: small-hook-commit-msg\n", 1))
		r.Commit("add the commit-msg hook")
		if out, ok := runIn(t, r.Dir, env, "pre-commit", "install", "--hook-type", "commit-msg"); !ok {
			t.Fatalf("pre-commit install: %s", out)
		}
		old := r.Read(progressPath)
		r.Write(progressPath, strings.Replace(old, "rewritten", "rewritten again", 1))
		r.Git("add", "-A")
		if out, ok := gitRun(r, nil, "commit", "-q", "-m", "fix it again", "-m", "Small-Rewrite: another typo"); !ok {
			t.Fatalf("with the commit-msg hook installed, the trailer alone was not enough:\n%s", out)
		}
	})
}
