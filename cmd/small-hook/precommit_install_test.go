//go:build e2e

package main

import (
	"regexp"
	"strings"
	"testing"
)

// TestInstallBesidePreCommitAdviceWorks: in a repository whose hooks the
// pre-commit framework runs (Debian's 3.0.4), `small-hook install` writes
// no hook of its own and names the hooks to list and the command to run;
// following it exactly (the hook repository a local clone, offline) makes
// pre-commit run small-hook — a rewrite is refused — and install then
// says the hooks are listed already, with nothing to do.
func TestInstallBesidePreCommitAdviceWorks(t *testing.T) {
	env := append(preCommitEnv(t), binPATH(t))
	snapshot := snapshotWorkingTree(t)
	bin := smallHook.path(t)
	r := workspaceRepo(t)
	r.Write(".pre-commit-config.yaml", "repos:\n- repo: local\n  hooks:\n  - id: lint\n    name: lint\n    entry: 'true'\n    language: system\n")
	r.Commit("pre-commit config")
	if out, ok := runIn(t, r.Dir, env, "pre-commit", "install"); !ok {
		t.Fatalf("pre-commit install: %s", out)
	}

	out, ok := runIn(t, r.Dir, env, bin, "install")
	ids := regexp.MustCompile(`add the hooks (\S+) and (\S+) of https://github.com/small-hook/small-hook`).FindStringSubmatch(out)
	command := regexp.MustCompile("and run `(pre-commit install[^`]*)`").FindStringSubmatch(out)
	if ok || ids == nil || command == nil {
		t.Fatalf("install beside pre-commit: ok %v, want the hooks to list and the command:\n%s", ok, out)
	}
	config := r.Read(".pre-commit-config.yaml") + "- repo: " + snapshot.Dir + "\n  rev: " + snapshot.Git("rev-parse", "HEAD") + "\n  hooks:\n"
	for _, id := range ids[1:] {
		config += "  - id: " + id + "\n"
	}
	r.Write(".pre-commit-config.yaml", config)
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "list small-hook's hooks")
	args := strings.Fields(command[1])
	if out, ok := runIn(t, r.Dir, env, args[0], args[1:]...); !ok {
		t.Fatalf("%s: %s", command[1], out)
	}

	rewriteProgress(r)
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "rewrite"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("after following the advice, pre-commit let a rewrite through:\n%s", out)
	}
	r.Git("reset", "-q", "--hard")
	out, ok = runIn(t, r.Dir, env, bin, "install")
	if !ok || !strings.Contains(out, "already lists small-hook's ("+ids[1]+", "+ids[2]+")") || !strings.Contains(out, "commit-msg: unchanged") {
		t.Fatalf("install once pre-commit runs small-hook: ok %v\n%s", ok, out)
	}
}
