package hooks

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/small-hook/small-hook/internal/testskip"
)

// TestRunsCommitMsgCheck: whether git's commit-msg hook will run
// small-hook's commit-msg check, for small-hook's own hook, the real
// pre-commit framework's (installed by `pre-commit install`) with and
// without small-hook's commit-msg hook configured, and hooks that will
// not run.
func TestRunsCommitMsgCheck(t *testing.T) {
	isolate(t)
	if _, err := exec.LookPath("pre-commit"); err != nil {
		testskip.Skip(t, "pre-commit is not installed (apt-get install pre-commit; .ci/run installs Debian's package)")
	}
	const withHook = "repos:\n- repo: https://github.com/small-hook/small-hook\n  rev: v1.0.0\n  hooks:\n  - id: small-hook\n  - id: small-hook-commit-msg\n"
	const withoutHook = "repos:\n- repo: https://github.com/small-hook/small-hook\n  rev: v1.0.0\n  hooks:\n  - id: small-hook\n"
	const movedOff = "repos:\n- repo: https://github.com/small-hook/small-hook\n  rev: v1.0.0\n  hooks:\n  - id: small-hook-commit-msg\n    stages: [manual]\n"
	cases := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  bool
	}{
		{"no hook", func(t *testing.T, dir string) {}, false},
		{"small-hook's hooks", func(t *testing.T, dir string) {
			if _, err := Install(dir, Options{Getenv: os.Getenv}); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"small-hook's hook, not executable", func(t *testing.T, dir string) {
			if _, err := Install(dir, Options{Getenv: os.Getenv}); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(filepath.Join(dir, ".git", "hooks", "commit-msg"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a foreign hook", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, ".git", "hooks", "commit-msg"), "#!/bin/sh\nexit 0\n", 0o755)
		}, false},
		{"pre-commit with small-hook-commit-msg", func(t *testing.T, dir string) {
			preCommitInstall(t, dir, ".pre-commit-config.yaml", withHook)
		}, true},
		{"pre-commit without it", func(t *testing.T, dir string) {
			preCommitInstall(t, dir, ".pre-commit-config.yaml", withoutHook)
		}, false},
		{"pre-commit with it moved to another stage", func(t *testing.T, dir string) {
			preCommitInstall(t, dir, ".pre-commit-config.yaml", movedOff)
		}, false},
		{"pre-commit with another configuration file (-c)", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, ".pre-commit-config.yaml"), withoutHook, 0o644)
			preCommitInstall(t, dir, "ci/pre-commit.yaml", withHook)
		}, true},
		{"pre-commit over small-hook's own hook (commit-msg.legacy)", func(t *testing.T, dir string) {
			if _, err := Install(dir, Options{Getenv: os.Getenv}); err != nil {
				t.Fatal(err)
			}
			preCommitInstall(t, dir, ".pre-commit-config.yaml", withoutHook)
		}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := newRepo(t)
			c.setup(t, dir)
			h, err := Dir(dir, os.Getenv)
			if err != nil {
				t.Fatal(err)
			}
			got, err := RunsCommitMsgCheck(h.Path, h.workTree)
			if err != nil || got != c.want {
				t.Fatalf("RunsCommitMsgCheck = %v, %v; want %v", got, err, c.want)
			}
		})
	}
}

// preCommitInstall writes a pre-commit configuration at config (relative
// to the work tree) and runs the real `pre-commit install` for the
// commit-msg hook with it.
func preCommitInstall(t *testing.T, dir, config, content string) {
	t.Helper()
	writeFile(t, filepath.Join(dir, config), content, 0o644)
	cmd := exec.Command("pre-commit", "install", "--hook-type", "commit-msg", "-c", config)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PRE_COMMIT_HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("pre-commit install: %v\n%s", err, out)
	}
}

// TestCommitMsgHookIDsAreTheManifests: the ids RunsCommitMsgCheck looks for
// are hooks of small-hook's .pre-commit-hooks.yaml that run the commit-msg
// check at the commit-msg stage.
func TestCommitMsgHookIDsAreTheManifests(t *testing.T) {
	var manifest []struct {
		ID     string   `yaml:"id"`
		Args   []string `yaml:"args"`
		Stages []string `yaml:"stages"`
	}
	if err := yaml.Unmarshal([]byte(readFile(t, "../.pre-commit-hooks.yaml")), &manifest); err != nil {
		t.Fatal(err)
	}
	for _, id := range commitMsgHookIDs() {
		found := false
		for _, h := range manifest {
			if h.ID == id {
				found = slices.Equal(h.Stages, []string{"commit-msg"}) && slices.Contains(h.Args, "--commit-msg")
			}
		}
		if !found {
			t.Errorf("%s is not a commit-msg hook of .pre-commit-hooks.yaml that runs check --commit-msg", id)
		}
	}
}
