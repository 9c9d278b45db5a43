//go:build e2e

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestPreCommitFramework runs the hooks of this checkout's working tree
// through git: the framework installs hooks from commits only, so it gets
// a throw-away commit of the working tree.
func TestPreCommitFramework(t *testing.T) {
	t.Parallel()
	env := preCommitEnv(t)
	snapshot := snapshotWorkingTree(t)
	r := workspaceRepo(t)
	config := "repos:\n- repo: " + snapshot.Dir + "\n  rev: " + snapshot.Git("rev-parse", "HEAD") +
		"\n  hooks:\n  - id: small-hook\n  - id: small-hook-commit-msg\n  - id: small-hook-push\n"
	r.Write(".pre-commit-config.yaml", config)
	r.Commit("pre-commit config")
	if out, ok := runIn(t, r.Dir, env, "pre-commit", "install", "--hook-type", "pre-commit",
		"--hook-type", "commit-msg", "--hook-type", "pre-push"); !ok {
		t.Fatalf("pre-commit install: %s", out)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	// pre-commit gives no range for a branch holding the root commit, so the
	// first push goes without the hook.
	if out, ok := runIn(t, r.Dir, env, "git", "push", "-q", "--no-verify", "origin", "main"); !ok {
		t.Fatal(out)
	}

	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-m", "progress"); !ok {
		t.Fatalf("a legitimate commit was refused through pre-commit:\n%s", out)
	}
	assertPreCommitBuiltSnapshot(t, env, snapshot)
	if out, ok := runIn(t, r.Dir, env, "git", "push", "origin", "main"); !ok {
		t.Fatalf("a legitimate push was refused through pre-commit:\n%s", out)
	}
	refuseAgentIntentEdit(t, r, env)
	rewriteProgress(r)
	r.Git("add", "-A")
	out, ok := runIn(t, r.Dir, env, "git", "commit", "-m", "rewrite")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("pre-commit let a history rewrite through git commit:\n%s", out)
	}
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "--no-verify", "-m", "rewrite"); !ok {
		t.Fatal(out)
	}
	out, ok = runIn(t, r.Dir, env, "git", "push", "origin", "main")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("pre-commit let a history rewrite through git push:\n%s", out)
	}
}

// assertPreCommitBuiltSnapshot checks that pre-commit's copy of the hook
// repository is the snapshot, go.mod and go.sum untouched by the build.
func assertPreCommitBuiltSnapshot(t *testing.T, env []string, snapshot *testRepo) {
	t.Helper()
	var home string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PRE_COMMIT_HOME="); ok {
			home = v
		}
	}
	manifests, err := filepath.Glob(filepath.Join(home, "*", ".pre-commit-hooks.yaml"))
	if err != nil || len(manifests) != 1 {
		t.Fatalf("pre-commit's clones of the hook repository: %v %v", manifests, err)
	}
	clone := filepath.Dir(manifests[0])
	for _, name := range []string{".pre-commit-hooks.yaml", "go.mod", "go.sum"} {
		got, err := os.ReadFile(filepath.Join(clone, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != snapshot.Read(name) {
			t.Errorf("pre-commit's clone holds another %s than the working tree (rewritten by the build?)", name)
		}
	}
}

func TestGitHubAction(t *testing.T) {
	cases := []struct {
		name string
		// change makes the pull request's commit.
		change func(r *testRepo)
		// inputs are the action's inputs besides repository-path, which
		// keeps its default (the workspace).
		inputs              map[string]string
		exitCode            string
		annotation, summary string
		sarif               bool
	}{
		{"a pull request rewriting progress history fails with annotations", rewriteProgress,
			map[string]string{"sarif-file": "results.sarif"}, "1",
			"::error file=.small/progress.small.yml,line=", "small/append-only", true},
		{"a pull request appending progress passes", func(r *testRepo) {
			r.Write(progressPath, r.Read(progressPath)+appendedEntry)
		}, nil, "0", "", "", false},
		{"extra arguments are passed on", rewriteProgress,
			map[string]string{"args": "--format text"}, "1", "", "", false},
		{"a configuration that cannot be read fails as could-not-check", func(r *testRepo) {
			r.Write(progressPath, r.Read(progressPath)+appendedEntry)
		}, map[string]string{"config-path": "missing/.small-hook.yml"}, "2", "", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := workspaceRepo(t)
			base := r.Git("rev-parse", "HEAD")
			c.change(r)
			head := r.Commit("pull request change")
			run := runAction(t, r.Dir, c.inputs, "pull_request", pullRequestEvent(base, head))
			if !run.didRun("Build small-hook") {
				t.Fatalf("the action used at a branch did not build small-hook (ran %v):\n%s", run.ran, run.log)
			}

			if got := run.outputs["exit-code"]; got != c.exitCode {
				t.Fatalf("exit-code output %q, want %s\n%s", got, c.exitCode, run.log)
			}
			if strconv.Itoa(run.status) != c.exitCode {
				t.Errorf("the action's steps ended with status %d, want %s (the check's exit code)", run.status, c.exitCode)
			}
			annotations := 0
			for _, line := range strings.Split(run.log, "\n") {
				if strings.HasPrefix(line, "::error ") || strings.HasPrefix(line, "::warning ") {
					annotations++
				}
			}
			if c.inputs["args"] == "" && run.outputs["findings"] != strconv.Itoa(annotations) {
				t.Errorf("findings output %q, but %d annotations were written:\n%s", run.outputs["findings"], annotations, run.log)
			}
			if c.annotation != "" && !strings.Contains(run.log, c.annotation) {
				t.Errorf("no annotation %q:\n%s", c.annotation, run.log)
			}
			if c.exitCode == "0" && strings.Contains(run.log, "::error ") {
				t.Errorf("a passing run wrote error annotations:\n%s", run.log)
			}
			if c.summary != "" && !strings.Contains(run.summary, c.summary) {
				t.Errorf("the step summary lacks %q:\n%s", c.summary, run.summary)
			}
			if c.inputs["args"] != "" && (strings.Contains(run.log, "::error ") || !strings.Contains(run.log, "small/append-only")) {
				t.Errorf("args did not switch the output to text:\n%s", run.log)
			}
			sarif, err := os.ReadFile(filepath.Join(r.Dir, "results.sarif"))
			if c.sarif && (err != nil || !strings.Contains(string(sarif), `"ruleId": "small/append-only"`)) {
				t.Errorf("the SARIF file lacks the finding: %v", err)
			}
			if !c.sarif && err == nil {
				t.Error("a SARIF file was written without the sarif-file input")
			}
		})
	}
}
