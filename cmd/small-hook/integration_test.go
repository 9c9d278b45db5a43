package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/small-hook/small-hook/internal/gittest"
	"github.com/small-hook/small-hook/internal/testskip"
	"gopkg.in/yaml.v3"
)

// cleanEnv returns this process's environment without anything a CI
// system, pre-commit or small-hook itself reads to find a range, so that
// the end-to-end tests behave the same on a laptop and inside a CI job.
func cleanEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "CI", name == "GIT_DIR", name == "GIT_WORK_TREE", name == "GIT_INDEX_FILE",
			strings.HasPrefix(name, "GITHUB_"), strings.HasPrefix(name, "RUNNER_"),
			strings.HasPrefix(name, "GITLAB_"), strings.HasPrefix(name, "CI_"),
			strings.HasPrefix(name, "PRE_COMMIT_"), strings.HasPrefix(name, "SMALL_HOOK_"):
			continue
		}
		env = append(env, kv)
	}
	env = append(env, gittest.Isolation()...)
	return append(env, extra...)
}

// withBinary returns the small-hook binary built for the tests and a clean
// environment whose PATH finds it first.
func withBinary(t testing.TB) (string, []string) {
	t.Helper()
	bin := smallHook.path(t)
	return bin, cleanEnv("PATH=" + filepath.Dir(bin) + string(os.PathListSeparator) + os.Getenv("PATH"))
}

// binEnv is the environment withBinary returns.
func binEnv(t testing.TB) []string {
	_, env := withBinary(t)
	return env
}

// binPATH is a PATH setting that finds the small-hook binary first.
func binPATH(t testing.TB) string {
	return "PATH=" + filepath.Dir(smallHook.path(t)) + string(os.PathListSeparator) + os.Getenv("PATH")
}

// runIn runs a command in dir and returns its combined output and whether
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
	old := r.Read(progressPath)
	rewritten := strings.Replace(old, "go test ./parser passed", "rewritten", 1)
	if rewritten == old {
		r.T.Fatal("the fixture no longer holds the entry the tests rewrite")
	}
	r.Write(progressPath, rewritten)
}

// refuseAgentIntentEdit commits an agent's edit of the human-owned intent
// through the installed hooks, wants the commit-msg hook to refuse it, and
// restores the work tree and index.
func refuseAgentIntentEdit(t *testing.T, r *testRepo, env []string) {
	t.Helper()
	head := r.Git("rev-parse", "HEAD")
	editIntent(r, "rewritten by an agent")
	r.Git("add", "-A")
	out, ok := runIn(t, r.Dir, env, "git", "commit", "-m", "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	if ok || !strings.Contains(out, "small/ownership") {
		t.Fatalf("the commit-msg hook let an agent edit the intent:\n%s", out)
	}
	if got := r.Git("rev-parse", "HEAD"); got != head {
		t.Fatalf("HEAD moved to %s although the commit was refused", got)
	}
	r.Git("reset", "-q", "--hard")
}

func TestNativeHooksBlockCommitAndPush(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	bin, env := withBinary(t)
	if out, ok := runIn(t, r.Dir, env, bin, "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "progress"); !ok {
		t.Fatalf("a legitimate commit was refused:\n%s", out)
	}
	refuseAgentIntentEdit(t, r, env)
	rewriteProgress(r)
	r.Git("add", "-A")
	out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "rewrite")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("git commit let a history rewrite through:\n%s", out)
	}
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "--no-verify", "-m", "rewrite"); !ok {
		t.Fatal(out)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	// A new branch on a remote without a default branch: the whole tree.
	if out, ok := runIn(t, r.Dir, env, "git", "push", "-q", "origin", "HEAD~1:refs/heads/main"); !ok {
		t.Fatalf("pushing the clean history was refused:\n%s", out)
	}
	// An existing branch: the commits the remote lacks.
	out, ok = runIn(t, r.Dir, env, "git", "push", "-q", "origin", "main")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("git push let a history rewrite through:\n%s", out)
	}
	// A new branch: what it adds to the remote's default branch.
	r.Git("remote", "set-head", "origin", "main")
	out, ok = runIn(t, r.Dir, env, "git", "push", "-q", "origin", "main:refs/heads/topic")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("pushing the rewrite as a new branch went through:\n%s", out)
	}
	if out, ok := runIn(t, r.Dir, env, bin, "uninstall"); !ok || !strings.Contains(out, "removed") {
		t.Fatalf("uninstall: %s", out)
	}
	if out, ok := runIn(t, r.Dir, env, "git", "push", "-q", "origin", "main"); !ok {
		t.Fatalf("a push after uninstall was still checked:\n%s", out)
	}
}

// TestInstallKeepsAForeignHookRunning: install refuses to touch a hook it
// did not write; --force installs small-hook's in its place and keeps the
// user's running before it, through a real git commit; uninstall puts it
// back as it was.
func TestInstallKeepsAForeignHookRunning(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	ran := filepath.Join(t.TempDir(), "ran")
	foreign := "#!/bin/sh\necho \"user hook\" >> '" + ran + "'\n"
	hook := filepath.Join(r.Dir, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte(foreign), 0o755); err != nil {
		t.Fatal(err)
	}
	bin, env := withBinary(t)
	out, ok := runIn(t, r.Dir, env, bin, "install")
	if ok || !strings.Contains(out, "--force") {
		t.Fatalf("install over a foreign hook succeeded or did not say how to install over it:\n%s", out)
	}
	if got := r.Read(".git/hooks/pre-commit"); got != foreign {
		t.Fatalf("install overwrote a foreign hook with:\n%s", got)
	}
	if out, ok := runIn(t, r.Dir, env, bin, "install", "--force"); !ok || !strings.Contains(out, "pre-commit: chained") {
		t.Fatalf("install --force: %s", out)
	}
	rewriteProgress(r)
	r.Git("add", "-A")
	out, ok = runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "rewrite")
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("small-hook's hook did not run:\n%s", out)
	}
	if got := readFile(t, ran); got != "user hook\n" {
		t.Fatalf("the user's hook did not run before small-hook's: %q", got)
	}
	if out, ok := runIn(t, r.Dir, env, bin, "uninstall"); !ok || !strings.Contains(out, "pre-commit: restored") {
		t.Fatalf("uninstall: %s", out)
	}
	if got := r.Read(".git/hooks/pre-commit"); got != foreign {
		t.Fatalf("uninstall did not put the user's hook back:\n%s", got)
	}
}

// TestHooksFindTheInstallingBinaryWithoutPATH: a GUI client or an IDE
// runs hooks with a PATH that lacks small-hook; the hooks run the binary
// install ran from, and still refuse a rewrite.
func TestHooksFindTheInstallingBinaryWithoutPATH(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	bin, env := withBinary(t)
	if out, ok := runIn(t, r.Dir, env, bin, "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	gui := cleanEnv("PATH=/usr/bin:/bin")
	for _, dir := range []string{"/usr/bin", "/bin"} {
		if _, err := os.Stat(filepath.Join(dir, "small-hook")); err == nil {
			t.Fatalf("%s/small-hook would stand in for the installed binary; the test proves nothing", dir)
		}
	}
	r.Write("README.md", "docs\n")
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, gui, "git", "commit", "-q", "-m", "docs"); !ok {
		t.Fatalf("a commit that touches nothing governed failed without small-hook on PATH:\n%s", out)
	}
	rewriteProgress(r)
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, gui, "git", "commit", "-q", "-m", "rewrite"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("the hook did not run the installed binary:\n%s", out)
	}
}

// preCommitEnv returns a clean environment for the pre-commit framework,
// whose golang hooks build offline from this machine's module cache:
// pre-commit 3.0.4 runs `go install ./...` with its own GOPATH, which would
// otherwise download every module again. -mod=readonly keeps the build from
// rewriting go.mod: a module that only builds after an update fails here as
// it would for users. Without pre-commit the test skips (fails under
// CI=true).
func preCommitEnv(t *testing.T) []string {
	t.Helper()
	if _, err := exec.LookPath("pre-commit"); err != nil {
		testskip.Skip(t, "pre-commit is not installed (apt-get install pre-commit; .ci/run installs it)")
	}
	out, err := exec.Command("go", "env", "GOMODCACHE", "GOFLAGS").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	modcache, goflags, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return cleanEnv("PRE_COMMIT_HOME="+t.TempDir(), "GOMODCACHE="+modcache,
		"GOPROXY=off", "GOFLAGS="+strings.TrimSpace(goflags+" -mod=readonly"))
}

func TestPreCommitManifestIsValid(t *testing.T) {
	t.Parallel()
	env := preCommitEnv(t)
	if out, ok := runIn(t, "../..", env, "pre-commit", "validate-manifest", ".pre-commit-hooks.yaml"); !ok {
		t.Fatalf("pre-commit rejects .pre-commit-hooks.yaml:\n%s", out)
	}
}

// action is the part of action.yml the runner reads.
type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

// actionStep is one step of the composite action.
type actionStep struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	If               string            `yaml:"if"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Run              string            `yaml:"run"`
	Shell            string            `yaml:"shell"`
	WorkingDirectory string            `yaml:"working-directory"`
	Env              map[string]string `yaml:"env"`
}

// label names a step in test messages: its name, else its id, else what
// it uses.
func (s actionStep) label() string {
	for _, l := range []string{s.Name, s.ID, s.Uses} {
		if l != "" {
			return l
		}
	}
	return "unnamed step"
}

func readAction(t testing.TB) (action, string) {
	t.Helper()
	actionPath, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(actionPath, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a, actionPath
}

// actionRun is what a run of the action left behind.
type actionRun struct {
	log, summary string
	outputs      map[string]string
	// status is the exit status of the step that ended the run (0 when
	// every step succeeded): what decides whether the job fails.
	status int
	// ran and skipped list the steps (by label) that ran and the ones
	// whose if: condition was false.
	ran, skipped []string
	// took is how long each step that ran took (for benchmarks).
	took map[string]time.Duration
}

// actionUse is how a workflow uses the action.
type actionUse struct {
	// ref is github.action_ref: what follows the @ in `uses:`.
	ref string
	// path is github.action_path, where the runner checked the action
	// out; "" means this checkout.
	path string
	// env is the job's environment, added to every step's.
	env []string
}

var expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// condition is the one form of `if:` the test runner evaluates: a context
// value compared with a string literal.
var condition = regexp.MustCompile(`^(\S+)\s*(==|!=)\s*'([^']*)'$`)

// runAction runs the action as a workflow using it at a branch does.
func runAction(t *testing.T, workspace string, inputs map[string]string, event, payload string) actionRun {
	t.Helper()
	return runActionAs(t, actionUse{ref: "main"}, workspace, inputs, event, payload)
}

// runActionAs runs the composite action's steps as the GitHub runner would:
// each step's `if:` evaluated (a false one skips the step), each `run:`
// with `bash --noprofile --norc -eo pipefail`, expressions substituted, a
// fresh GITHUB_OUTPUT per step whose values later steps, conditions and
// the action's outputs can read, and the workspace as working directory.
// A setup-go step that runs is not executed: Go is already installed.
func runActionAs(t testing.TB, use actionUse, workspace string, inputs map[string]string, event, payload string) actionRun {
	t.Helper()
	a, actionPath := readAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using is %q, want composite", a.Runs.Using)
	}
	if use.path != "" {
		actionPath = use.path
	}
	values := map[string]string{"github.action_path": actionPath, "github.action_ref": use.ref, "github.workspace": workspace, "github.event_name": event}
	var fields struct {
		Before     string `json:"before"`
		Ref        string `json:"ref"`
		Repository struct {
			DefaultBranch string `json:"default_branch"`
		} `json:"repository"`
	}
	if err := json.Unmarshal([]byte(payload), &fields); err != nil {
		t.Fatalf("the event payload is not JSON: %v", err)
	}
	values["github.event.before"] = fields.Before
	values["github.event.ref"] = fields.Ref
	values["github.event.repository.default_branch"] = fields.Repository.DefaultBranch
	for name, in := range a.Inputs {
		values["inputs."+name] = in.Default
	}
	for name, v := range inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("action.yml has no input %q", name)
		}
		values["inputs."+name] = v
	}
	lookup := func(key string) string {
		v, ok := values[key]
		if !ok && !strings.HasPrefix(key, "steps.") {
			t.Fatalf("the test runner does not know the context value %s", key)
		}
		return v
	}
	substitute := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(m string) string {
			return lookup(expression.FindStringSubmatch(m)[1])
		})
	}
	holds := func(cond string) bool {
		if inner := expression.FindStringSubmatch(cond); inner != nil && inner[0] == strings.TrimSpace(cond) {
			cond = inner[1]
		}
		m := condition.FindStringSubmatch(strings.TrimSpace(cond))
		if m == nil {
			t.Fatalf("the test runner cannot evaluate the condition %q", cond)
		}
		return (lookup(m[1]) == m[3]) == (m[2] == "==")
	}

	tmp := t.TempDir()
	eventPath := filepath.Join(tmp, "event.json")
	if err := os.WriteFile(eventPath, []byte(payload), 0o644); err != nil {
		t.Fatal(err)
	}
	runnerTemp := filepath.Join(tmp, "runner-temp")
	if err := os.Mkdir(runnerTemp, 0o755); err != nil {
		t.Fatal(err)
	}
	run := actionRun{took: map[string]time.Duration{}}
	for i, step := range a.Runs.Steps {
		if step.If != "" && !holds(step.If) {
			run.skipped = append(run.skipped, step.label())
			continue
		}
		run.ran = append(run.ran, step.label())
		if step.Uses != "" {
			if !strings.HasPrefix(step.Uses, "actions/setup-go@") {
				t.Fatalf("step %d uses %s, which the test runner cannot stand in for", i, step.Uses)
			}
			continue
		}
		if step.Shell != "bash" {
			t.Fatalf("step %d: shell %q; composite steps need an explicit shell, and this runner knows bash", i, step.Shell)
		}
		script := filepath.Join(tmp, "step.sh")
		if err := os.WriteFile(script, []byte(substitute(step.Run)), 0o644); err != nil {
			t.Fatal(err)
		}
		output, summary := filepath.Join(tmp, "output", step.ID), filepath.Join(tmp, "summary.md")
		if err := os.MkdirAll(filepath.Dir(output), 0o755); err != nil {
			t.Fatal(err)
		}
		os.Remove(output)
		os.Remove(summary)
		env := cleanEnv("CI=true", "GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME="+event, "GITHUB_EVENT_PATH="+eventPath,
			"GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_ACTION_PATH="+actionPath,
			"GITHUB_WORKSPACE="+workspace, "RUNNER_TEMP="+runnerTemp,
			"RUNNER_OS="+runnerOS(runtime.GOOS), "RUNNER_ARCH="+runnerArch(runtime.GOARCH))
		env = append(env, use.env...)
		for k, v := range step.Env {
			env = append(env, k+"="+substitute(v))
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = workspace
		if step.WorkingDirectory != "" {
			cmd.Dir = substitute(step.WorkingDirectory)
		}
		cmd.Env = env
		started := time.Now()
		out, err := cmd.CombinedOutput()
		run.took[step.label()] = time.Since(started)
		run.log += string(out)
		if data, err := os.ReadFile(summary); err == nil {
			run.summary += string(data)
		}
		if step.ID != "" {
			for k, v := range readOutputs(t, output) {
				values["steps."+step.ID+".outputs."+k] = v
			}
		}
		if err != nil {
			ee, ok := err.(*exec.ExitError)
			if !ok {
				t.Fatal(err)
			}
			run.status = ee.ExitCode()
			break // a failing step ends the job
		}
	}
	run.outputs = map[string]string{}
	for name, out := range a.Outputs {
		run.outputs[name] = substitute(out.Value)
	}
	return run
}

// runnerOS is RUNNER_OS on a machine running GOOS goos.
func runnerOS(goos string) string {
	switch goos {
	case "linux":
		return "Linux"
	case "darwin":
		return "macOS"
	case "windows":
		return "Windows"
	}
	return goos
}

// runnerArch is RUNNER_ARCH on a machine running GOARCH goarch.
func runnerArch(goarch string) string {
	switch goarch {
	case "amd64":
		return "X64"
	case "arm64":
		return "ARM64"
	case "386":
		return "X86"
	case "arm":
		return "ARM"
	}
	return goarch
}

// readOutputs parses a GITHUB_OUTPUT file (name=value lines; the
// name<<DELIMITER form too).
func readOutputs(t testing.TB, file string) map[string]string {
	t.Helper()
	outputs := map[string]string{}
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return outputs
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var lines []string
			for sc.Scan() && sc.Text() != delim {
				lines = append(lines, sc.Text())
			}
			outputs[name] = strings.Join(lines, "\n")
			continue
		}
		if name, value, ok := strings.Cut(line, "="); ok {
			outputs[name] = value
		}
	}
	return outputs
}

// pullRequestEvent is a pull_request payload as GitHub writes it, trimmed
// to the fields a reader might use.
func pullRequestEvent(base, head string) string {
	return `{
  "action": "synchronize",
  "number": 7,
  "before": "` + base + `",
  "after": "` + head + `",
  "pull_request": {
    "number": 7,
    "state": "open",
    "title": "Record progress",
    "user": {"login": "octocat", "type": "User"},
    "base": {"label": "acme:main", "ref": "main", "sha": "` + base + `", "repo": {"full_name": "acme/project", "default_branch": "main"}},
    "head": {"label": "acme:feature", "ref": "feature", "sha": "` + head + `", "repo": {"full_name": "acme/project", "default_branch": "main"}},
    "commits": 1
  },
  "repository": {"full_name": "acme/project", "default_branch": "main"},
  "sender": {"login": "octocat", "type": "User"}
}`
}

// TestGitHubActionSetsUpGoOnlyToBuild: Go is set up, from the go-version
// input or the action's go.mod, exactly when small-hook is built.
func TestGitHubActionSetsUpGoOnlyToBuild(t *testing.T) {
	a, _ := readAction(t)
	var setupGo, build *actionStep
	for i, step := range a.Runs.Steps {
		switch {
		case strings.HasPrefix(step.Uses, "actions/setup-go@"):
			setupGo = &a.Runs.Steps[i]
		case strings.Contains(step.Run, "go build"):
			build = &a.Runs.Steps[i]
		}
	}
	if setupGo == nil || build == nil {
		t.Fatal("the action has no setup-go step or no build step")
	}
	with := setupGo.With
	if with["go-version"] != "${{ inputs.go-version }}" || with["go-version-file"] != "${{ github.action_path }}/go.mod" {
		t.Errorf("setup-go does not take the go-version input with the action's go.mod as fallback: %v", with)
	}
	if a.Inputs["go-version"].Default != "" {
		t.Errorf("go-version defaults to %q; empty lets setup-go read the action's go.mod", a.Inputs["go-version"].Default)
	}
	const onBuild = "steps.release.outputs.source == 'build'"
	if setupGo.If != onBuild || build.If != onBuild {
		t.Errorf("setup-go (if: %q) and the build (if: %q) must run exactly when %s", setupGo.If, build.If, onBuild)
	}
}
