package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"
)

// framework is one setup of the pre-commit framework that a commit runs
// through: the hooks of a manifest it lists and the hook types installed.
type framework struct {
	name string
	// manifest is the .pre-commit-hooks.yaml the hooks come from, ids
	// the hooks it lists.
	manifest string
	ids      []string
	types    []string
	// bin is the directory of the hooks' binaries, first on PATH.
	bin string
}

// preCommitCommit is scenario 13: one commit of a progress append through
// Debian's pre-commit (3.0.4), with small-hook's two hooks (the pre-commit
// stage and the commit-msg stage), with its one commit-msg hook alone
// (which runs the whole staged check with the message), and with
// gitleaks' hook run by each build of gitleaks. The hooks are the
// manifests' own definitions with language: system, run from the binaries
// the benchmark built: what pre-commit runs once it has built a language:
// golang hook (the plain build), or what a user who installed gitleaks'
// release binary runs with gitleaks-system (the release build).
func (b *bench) preCommitCommit() (scenario, error) {
	s := scenario{title: "13. a commit through the pre-commit framework (pre-commit 3.0.4)"}
	gitleaksManifest, err := b.gitleaksManifest()
	if err != nil {
		return s, err
	}
	bin, manifest := filepath.Dir(b.tools.smallHook), filepath.Join(b.root, ".pre-commit-hooks.yaml")
	setups := []framework{
		{"small-hook, one hook: small-hook-commit-msg", manifest, []string{"small-hook-commit-msg"}, []string{"commit-msg"}, bin},
		{"small-hook, two hooks: small-hook and small-hook-commit-msg", manifest, []string{"small-hook", "small-hook-commit-msg"}, []string{"pre-commit", "commit-msg"}, bin},
		{"gitleaks' hook", gitleaksManifest, []string{"gitleaks-system"}, []string{"pre-commit"}, bin},
		{"gitleaks' hook" + releaseBuild, gitleaksManifest, []string{"gitleaks-system"}, []string{"pre-commit"}, filepath.Dir(b.tools.gitleaksRelease)},
		{"no hooks (git commit alone)", "", nil, nil, bin},
	}
	if _, err := exec.LookPath("pre-commit"); err != nil {
		s.subject = skipped(setups[0].name, "pre-commit is not installed (apt-get install pre-commit)")
		return s, nil
	}
	home := filepath.Join(b.work, "pre-commit-home")
	var cmds []command
	for i, f := range setups {
		env := []string{"PRE_COMMIT_HOME=" + home, "PATH=" + f.bin + string(os.PathListSeparator) + os.Getenv("PATH")}
		dir, err := b.repo(fmt.Sprintf("pre-commit-%d", i), 0)
		if err != nil {
			return s, err
		}
		if err := f.install(dir, env); err != nil {
			return s, fmt.Errorf("%s: %w", f.name, err)
		}
		if err := stageAppend(dir, 0); err != nil {
			return s, err
		}
		if i == 0 {
			if s.largest, err = largestGoverned(dir); err != nil {
				return s, err
			}
		}
		// The commit is taken back after each run so that the next one
		// commits the same staged append.
		cmds = append(cmds, command{name: f.name, dir: dir, env: env,
			argv: []string{"sh", "-c", `git commit -q -m "Record progress" && git reset -q --soft HEAD~1`}})
	}
	ms, err := measureTogether(b.runs, cmds...)
	if err != nil {
		return s, err
	}
	s.subject, s.peers = ms[0], ms[1:]
	return s, nil
}

// gitleaksManifest returns the .pre-commit-hooks.yaml of the gitleaks
// module small-hook imports, from the module cache.
func (b *bench) gitleaksManifest() (string, error) {
	dir, err := goCmdOutput(b.root, "list", "-m", "-f", "{{.Dir}}", gitleaksModule)
	if err != nil {
		return "", err
	}
	if dir == "" {
		return "", fmt.Errorf("the gitleaks module is not in the module cache (go mod download %s)", gitleaksModule)
	}
	return filepath.Join(dir, ".pre-commit-hooks.yaml"), nil
}

// install writes a .pre-commit-config.yaml of the setup's hooks as a local
// repository of language: system hooks, commits it, and installs the
// setup's hook types.
func (f framework) install(dir string, env []string) error {
	if f.manifest == "" {
		return nil
	}
	data, err := os.ReadFile(f.manifest)
	if err != nil {
		return err
	}
	var hooks []map[string]any
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		return fmt.Errorf("%s: %w", f.manifest, err)
	}
	var listed []map[string]any
	for _, id := range f.ids {
		found := false
		for _, h := range hooks {
			if h["id"] == id {
				h["language"] = "system"
				listed = append(listed, h)
				found = true
			}
		}
		if !found {
			return fmt.Errorf("%s has no hook %s", f.manifest, id)
		}
	}
	config, err := yaml.Marshal(map[string]any{"repos": []any{map[string]any{"repo": "local", "hooks": listed}}})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ".pre-commit-config.yaml"), config, 0o644); err != nil {
		return err
	}
	if err := git(dir, "add", ".pre-commit-config.yaml"); err != nil {
		return err
	}
	if err := git(dir, "commit", "-q", "--no-verify", "-m", "pre-commit configuration"); err != nil {
		return err
	}
	args := []string{"install"}
	for _, t := range f.types {
		args = append(args, "--hook-type", t)
	}
	cmd := exec.Command("pre-commit", args...)
	cmd.Dir = dir
	cmd.Env = append(benchEnv(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("pre-commit %s: %w\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}
