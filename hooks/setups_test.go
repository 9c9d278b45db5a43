package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// TestInstallBesideAPreCommitConfiguration: where a .pre-commit-config.yaml
// says the pre-commit framework runs the hooks, install writes no hook of
// its own (both would run on every commit): it names the hooks to list, or
// says they are listed already, and what pre-commit still has to install;
// --force installs beside the framework and says so.
func TestInstallBesideAPreCommitConfiguration(t *testing.T) {
	const listed = "repos:\n- repo: https://github.com/small-hook/small-hook\n  rev: v1.0.0\n  hooks:\n  - id: small-hook-commit-msg\n  - id: small-hook-push\n"
	cases := []struct {
		name, config string
		// preCommit are the git hooks pre-commit installed.
		preCommit []string
		force     bool
		what      string
		note      []string
	}{
		{"small-hook's hooks not listed", "repos:\n- repo: local\n  hooks:\n  - id: lint\n    name: lint\n    entry: 'true'\n    language: system\n", []string{"pre-commit"}, false,
			"pre-commit=skipped commit-msg=skipped pre-push=skipped",
			[]string{"add the hooks small-hook-commit-msg and small-hook-push of https://github.com/small-hook/small-hook", "`pre-commit install --hook-type commit-msg --hook-type pre-push`", "`small-hook install --force`"}},
		{"listed, and pre-commit's hooks installed", listed, []string{"commit-msg", "pre-push"}, false,
			"pre-commit=unchanged commit-msg=unchanged pre-push=unchanged",
			[]string{"already lists small-hook's (small-hook-commit-msg, small-hook-push): pre-commit runs small-hook"}},
		{"listed, one hook type not installed", listed, []string{"commit-msg"}, false,
			"pre-commit=skipped commit-msg=skipped pre-push=skipped",
			[]string{"already lists small-hook's (small-hook-commit-msg, small-hook-push), but pre-commit's hook is not installed for pre-push: run `pre-commit install --hook-type pre-push`"}},
		{"a local hook that runs small-hook", "repos:\n- repo: local\n  hooks:\n  - id: guard\n    name: guard\n    entry: small-hook check --commit-msg\n    language: system\n    stages: [commit-msg]\n", nil, false,
			"pre-commit=skipped commit-msg=skipped pre-push=skipped",
			[]string{"already lists small-hook's (guard), but pre-commit's hook is not installed for commit-msg: run `pre-commit install --hook-type commit-msg`"}},
		{"--force", "repos: []\n", []string{"pre-commit"}, true,
			"pre-commit=chained commit-msg=installed pre-push=installed",
			[]string{"installed beside the pre-commit framework, as --force asks"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			isolate(t)
			dir := newRepo(t)
			hooksDir := filepath.Join(dir, ".git", "hooks")
			writeFile(t, filepath.Join(dir, ".pre-commit-config.yaml"), tc.config, 0o644)
			for _, name := range tc.preCommit {
				writeFile(t, filepath.Join(hooksDir, name), preCommitHook, 0o755)
			}
			acts, err := Install(dir, Options{Force: tc.force, Getenv: os.Getenv})
			if err != nil || whats(acts) != tc.what {
				t.Fatalf("install: %s %v, want %s", whats(acts), err, tc.what)
			}
			notes := ""
			for _, a := range acts {
				notes += a.Note + "\n"
			}
			for _, want := range tc.note {
				if !strings.Contains(notes, want) {
					t.Errorf("the notes do not say %q:\n%s", want, notes)
				}
			}
			for _, name := range Names() {
				content, err := os.ReadFile(filepath.Join(hooksDir, name))
				if ours(content) != tc.force {
					t.Errorf("%s: small-hook's own hook there: %v (%v)", name, ours(content), err)
				}
			}
		})
	}
}

// TestUnreadablePreCommitConfigurationFails: a .pre-commit-config.yaml
// that is not YAML is an error naming the file, and nothing is installed.
func TestUnreadablePreCommitConfigurationFails(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	writeFile(t, filepath.Join(dir, ".pre-commit-config.yaml"), "repos: [\n", 0o644)
	acts, err := Install(dir, Options{Getenv: os.Getenv})
	if err == nil || !strings.Contains(err.Error(), ".pre-commit-config.yaml") || len(acts) != 0 {
		t.Fatalf("install: %s %v", whats(acts), err)
	}
}

// TestInstallIntoATrackedHooksPath: core.hooksPath names a directory the
// repository tracks (a team's committed .githooks): install writes nothing
// there — those files are every clone's, and small-hook's hooks name this
// machine's binary — and says how to call small-hook from the team's hooks
// instead; --force writes its own hooks there for this clone, chaining the
// team's, and says not to commit them. A hooks directory in the work tree
// that the repository does not track is installed into as before.
func TestInstallIntoATrackedHooksPath(t *testing.T) {
	isolate(t)
	dir := newRepo(t)
	team := "#!/bin/sh\necho team hook\n"
	writeFile(t, filepath.Join(dir, ".githooks", "pre-commit"), team, 0o755)
	git(t, dir, nil, "add", ".githooks")
	git(t, dir, nil, "commit", "-q", "-m", "team hooks")
	git(t, dir, nil, "config", "core.hooksPath", ".githooks")
	binary := "/opt/tools/small-hook"

	acts, err := Install(dir, Options{Binary: binary, Getenv: os.Getenv})
	if err != nil || whats(acts) != "pre-commit=skipped commit-msg=skipped pre-push=skipped" {
		t.Fatalf("install into a tracked hooks directory: %s %v", whats(acts), err)
	}
	for _, want := range []string{".githooks, a directory the repository tracks (.githooks/pre-commit)", "(" + binary + ")",
		".githooks/pre-commit runs `small-hook check`", ".githooks/commit-msg runs `small-hook check --commit-msg \"$1\"`",
		".githooks/pre-push runs `small-hook check --pre-push \"$1\"`", "`small-hook install --force`"} {
		if !strings.Contains(acts[0].Note, want) {
			t.Errorf("the note does not say %q: %s", want, acts[0].Note)
		}
	}
	entries, err := os.ReadDir(filepath.Join(dir, ".githooks"))
	if err != nil || len(entries) != 1 || readFile(t, filepath.Join(dir, ".githooks", "pre-commit")) != team {
		t.Fatalf("install changed the tracked hooks directory: %v %v", entries, err)
	}

	acts, err = Install(dir, Options{Binary: binary, Force: true, Getenv: os.Getenv})
	if err != nil || whats(acts) != "pre-commit=chained commit-msg=installed pre-push=installed" {
		t.Fatalf("install --force: %s %v", whats(acts), err)
	}
	for _, a := range acts {
		if !strings.Contains(a.Note, ".githooks is tracked by the repository, and this hook names this machine's small-hook: do not commit it") {
			t.Errorf("%s: no warning: %q", a.Hook, a.Note)
		}
	}
	if readFile(t, acts[0].Chained) != team {
		t.Error("the team's hook was not chained")
	}
}

// TestManifestHookTypesAreTheManifests: the git hook install's advice
// gives each of small-hook's pre-commit hooks is the one its stage in
// .pre-commit-hooks.yaml installs, and the hooks it recommends are there.
func TestManifestHookTypesAreTheManifests(t *testing.T) {
	var manifest []struct {
		ID     string   `yaml:"id"`
		Stages []string `yaml:"stages"`
	}
	if err := yaml.Unmarshal([]byte(readFile(t, "../.pre-commit-hooks.yaml")), &manifest); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, h := range manifest {
		ids[h.ID] = true
		if len(h.Stages) != 1 || manifestHookType(h.ID) == "" || manifestHookType(h.ID) != stageHookType(h.Stages[0]) {
			t.Errorf("%s: stages %v, hook type %q", h.ID, h.Stages, manifestHookType(h.ID))
		}
	}
	for _, id := range recommendedIDs() {
		if !ids[id] {
			t.Errorf("%s is recommended but not in .pre-commit-hooks.yaml", id)
		}
	}
}
