package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoLocalConfig is the `repo: local` configuration docs/integrations.md
// gives for machines without the module proxy: the first YAML block of its
// "Offline" section, so that the page and this test cannot disagree.
func repoLocalConfig(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../docs/integrations.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "### Offline: `repo: local`")
	if !ok {
		t.Fatal("docs/integrations.md has no Offline section")
	}
	_, rest, ok = strings.Cut(rest, "```yaml\n")
	block, _, closed := strings.Cut(rest, "```")
	if !ok || !closed || !strings.Contains(block, "repo: local") {
		t.Fatalf("the Offline section has no repo: local YAML block:\n%s", rest)
	}
	return block
}

// TestPreCommitRepoLocal follows the offline pre-commit set-up of
// docs/integrations.md exactly, with Debian's pre-commit and the small-hook
// on PATH: pre-commit install, then a commit of an append passes, a
// rewrite of history is refused at the commit-msg stage, and a push of a
// pull request's rewrite is refused too. Nothing is built or downloaded
// (GOPROXY=off).
func TestPreCommitRepoLocal(t *testing.T) {
	t.Parallel()
	env := append(preCommitEnv(t), binPATH(t))
	r := workspaceRepo(t)
	r.Write(".pre-commit-config.yaml", repoLocalConfig(t))
	r.Commit("pre-commit config")
	if out, ok := runIn(t, r.Dir, env, "pre-commit", "install"); !ok {
		t.Fatalf("pre-commit install: %s", out)
	}
	for _, hook := range []string{"commit-msg", "pre-push"} {
		if _, err := os.Stat(filepath.Join(r.Dir, ".git", "hooks", hook)); err != nil {
			t.Fatalf("pre-commit install did not install the %s hook: %v", hook, err)
		}
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	if out, ok := runIn(t, r.Dir, env, "git", "push", "-q", "origin", "main"); !ok {
		t.Fatalf("pushing main: %s", out)
	}
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-qam", "Record progress"); !ok {
		t.Fatalf("a clean append was refused:\n%s", out)
	}
	rewriteProgress(r)
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "fix typo"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("a rewrite of history passed the commit-msg hook:\n%s", out)
	}
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "--no-verify", "-m", "fix typo"); !ok {
		t.Fatal(out)
	}
	if out, ok := runIn(t, r.Dir, env, "git", "push", "-q", "origin", "main"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("the push hook let a rewrite through:\n%s", out)
	}
}
