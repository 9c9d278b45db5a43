package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// withBinary returns an environment whose PATH finds the small-hook binary
// built for the tests first.
func withBinary(extra ...string) []string {
	env := append(os.Environ(), gitEnv...)
	env = append(env, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return append(env, extra...)
}

// run runs a command in dir and returns its combined output and whether
// it succeeded.
func runIn(t *testing.T, dir string, env []string, name string, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("%s %v: %v", name, args, err)
		}
	}
	return string(out), err == nil
}

// rewriteProgress changes an old progress entry: a history rewrite.
func rewriteProgress(r *testRepo) {
	r.write(progressPath, strings.Replace(r.read(progressPath), "go test ./parser passed", "rewritten", 1))
}

func TestNativeHooksBlockCommitAndPush(t *testing.T) {
	r := workspaceRepo(t)
	env := withBinary()
	if out, ok := runIn(t, r.dir, env, filepath.Join(binDir, "small-hook"), "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	r.write(progressPath, r.read(progressPath)+appendedEntry)
	r.git("add", "-A")
	if out, ok := runIn(t, r.dir, env, "git", "commit", "-q", "-m", "progress"); !ok {
		t.Fatalf("a legitimate commit was refused:\n%s", out)
	}
	rewriteProgress(r)
	r.git("add", "-A")
	out, ok := runIn(t, r.dir, env, "git", "commit", "-q", "-m", "rewrite")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("git commit let a history rewrite through:\n%s", out)
	}
	if out, ok := runIn(t, r.dir, env, "git", "commit", "-q", "--no-verify", "-m", "rewrite"); !ok {
		t.Fatal(out)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.git("init", "-q", "--bare", remote)
	r.git("remote", "add", "origin", remote)
	out, ok = runIn(t, r.dir, env, "git", "push", "-q", "origin", "HEAD~1:refs/heads/main")
	if !ok {
		t.Fatalf("pushing the clean history was refused:\n%s", out)
	}
	out, ok = runIn(t, r.dir, env, "git", "push", "-q", "origin", "main")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("git push let a history rewrite through:\n%s", out)
	}
}

func TestPreCommitFramework(t *testing.T) {
	if _, err := exec.LookPath("pre-commit"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("pre-commit is not installed; .ci/run installs Debian's package")
		}
		t.Skip("pre-commit is not installed (apt-get install pre-commit)")
	}
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		t.Skip("not in a git checkout of small-hook")
	}
	checkout := strings.TrimSpace(string(top))
	rev, err := exec.Command("git", "-C", checkout, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("the checkout has no commit yet")
	}
	r := workspaceRepo(t)
	config := "repos:\n- repo: " + checkout + "\n  rev: " + strings.TrimSpace(string(rev)) +
		"\n  hooks:\n  - id: small-hook\n  - id: small-hook-commit-msg\n"
	r.write(".pre-commit-config.yaml", config)
	r.commit("pre-commit config")
	env := append(os.Environ(), gitEnv...)
	env = append(env, "PRE_COMMIT_HOME="+t.TempDir(), "GOFLAGS=-mod=mod")
	if out, ok := runIn(t, r.dir, env, "pre-commit", "install", "--hook-type", "pre-commit", "--hook-type", "commit-msg"); !ok {
		t.Fatalf("pre-commit install: %s", out)
	}
	r.write(progressPath, r.read(progressPath)+appendedEntry)
	r.git("add", "-A")
	if out, ok := runIn(t, r.dir, env, "git", "commit", "-m", "progress"); !ok {
		t.Fatalf("a legitimate commit was refused through pre-commit:\n%s", out)
	}
	rewriteProgress(r)
	r.git("add", "-A")
	out, ok := runIn(t, r.dir, env, "git", "commit", "-m", "rewrite")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("pre-commit let a history rewrite through:\n%s", out)
	}
}

// actionStep is one step of the composite action.
type actionStep struct {
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
	ID   string            `yaml:"id"`
}

func TestGitHubActionSteps(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Steps []actionStep `yaml:"steps"`
		} `yaml:"runs"`
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	r := workspaceRepo(t)
	base := r.git("rev-parse", "HEAD")
	rewriteProgress(r)
	head := r.commit("rewrite progress")

	tmp := t.TempDir()
	event := filepath.Join(tmp, "event.json")
	payload := `{"action":"opened","number":7,"pull_request":{"number":7,"base":{"ref":"main","sha":"` + base + `"},"head":{"ref":"feature","sha":"` + head + `"}},"repository":{"default_branch":"main"}}`
	if err := os.WriteFile(event, []byte(payload), 0o644); err != nil {
		t.Fatal(err)
	}
	output, summary := filepath.Join(tmp, "output"), filepath.Join(tmp, "summary.md")
	actionPath, _ := filepath.Abs("../..")
	inputs := map[string]string{"repository-path": r.dir, "config-path": "", "args": "", "sarif-file": filepath.Join(tmp, "out.sarif")}
	var log bytes.Buffer
	code := -1
	for _, step := range action.Runs.Steps {
		if step.Uses != "" {
			continue // actions/setup-go: Go is already here
		}
		if strings.Contains(step.Run, "go build") {
			// The binary is built once for all tests.
			continue
		}
		env := append(os.Environ(), gitEnv...)
		env = append(env, "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH="+event,
			"GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_ACTION_PATH="+actionPath, "RUNNER_TEMP="+binDir)
		for k, v := range step.Env {
			env = append(env, k+"="+substitute(v, inputs))
		}
		cmd := exec.Command("bash", "-e", "-c", substitute(step.Run, inputs))
		cmd.Env = env
		cmd.Stdout, cmd.Stderr = &log, &log
		err := cmd.Run()
		code = 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
	}
	if code != exitFindings {
		t.Fatalf("check step exited %d, want %d\n%s", code, exitFindings, log.String())
	}
	if !strings.Contains(log.String(), "::error file=.small/progress.small.yml,line=") || !strings.Contains(log.String(), "title=small/append-only::") {
		t.Errorf("no annotation for the rewrite:\n%s", log.String())
	}
	outputs, _ := os.ReadFile(output)
	if !strings.Contains(string(outputs), "exit-code=1") || !strings.Contains(string(outputs), "findings=2") {
		t.Errorf("step outputs:\n%s", outputs)
	}
	if md, _ := os.ReadFile(summary); !strings.Contains(string(md), "small/append-only") {
		t.Errorf("step summary lacks the finding:\n%s", md)
	}
	if sarif, _ := os.ReadFile(inputs["sarif-file"]); !strings.Contains(string(sarif), `"ruleId": "small/append-only"`) {
		t.Errorf("SARIF file lacks the finding")
	}
}

// substitute replaces ${{ inputs.NAME }} and ${{ github.action_path }} as
// the runner would.
func substitute(s string, inputs map[string]string) string {
	for k, v := range inputs {
		s = strings.ReplaceAll(s, "${{ inputs."+k+" }}", v)
	}
	return s
}
