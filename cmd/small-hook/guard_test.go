package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hookInput is a tool call as an agent's pre-tool hook hands it over, in
// the documented shape: Claude Code's PreToolUse or Gemini CLI's
// BeforeTool.
func hookInput(t testing.TB, agent, dir, tool string, input map[string]any) string {
	t.Helper()
	call := map[string]any{"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": dir, "tool_name": tool, "tool_input": input}
	if agent == "claude" {
		call["hook_event_name"], call["permission_mode"], call["tool_use_id"] = "PreToolUse", "default", "toolu_01"
	} else {
		call["hook_event_name"], call["timestamp"] = "BeforeTool", "2026-11-25T10:00:00Z"
	}
	data, err := json.Marshal(call)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// guard runs small-hook guard --agent agent in the repository with the
// hook input on standard input, and returns its exit code and standard
// error; standard output must stay empty.
func (r *testRepo) guard(vars map[string]string, agent, input string) (int, string) {
	r.T.Helper()
	var out, errOut bytes.Buffer
	ev := &env{stdin: strings.NewReader(input), stdout: &out, stderr: &errOut, dir: r.Dir, getenv: func(k string) string { return vars[k] }}
	code := run([]string{"guard", "--agent", agent}, ev)
	if out.Len() > 0 {
		r.T.Errorf("the guard wrote to standard output: %s", out.String())
	}
	return code, errOut.String()
}

// claude runs the guard on one of Claude Code's tool calls.
func (r *testRepo) claude(tool string, input map[string]any) (int, string) {
	r.T.Helper()
	return r.guard(nil, "claude", hookInput(r.T, "claude", r.Dir, tool, input))
}

// expectGuard checks a verdict: exit 0 and nothing said, or exit 2 and a
// refusal that holds every one of want.
func expectGuard(t *testing.T, what string, code int, stderr string, want ...string) {
	t.Helper()
	if len(want) == 0 {
		if code != exitAllowed || stderr != "" {
			t.Errorf("%s: exit %d, want the call to pass silently:\n%s", what, code, stderr)
		}
		return
	}
	if code != exitRefused {
		t.Errorf("%s: exit %d, want %d (refused):\n%s", what, code, exitRefused, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("%s: the refusal lacks %q:\n%s", what, w, stderr)
		}
	}
}

// rewrittenEntry is the first progress entry of the reference workspace
// with its evidence changed.
func rewrittenEntry(progress string) (old, new string) {
	old = "evidence: Initialized .small workspace and seeded canonical artifacts"
	if !strings.Contains(progress, old) {
		panic("the fixture changed")
	}
	return old, "evidence: Initialised the workspace"
}

// TestGuardJudgesSMALLWrites feeds Claude Code's Write, Edit and
// MultiEdit calls on a SMALL workspace to the guard: appends pass, history
// rewrites and human-owned files are refused with advice, and the advice
// followed passes.
func TestGuardJudgesSMALLWrites(t *testing.T) {
	r := workspaceRepo(t)
	progress := r.Path(progressPath)
	content := r.Read(progressPath)
	old, rewritten := rewrittenEntry(content)
	last := content[strings.LastIndex(strings.TrimSuffix(content, "\n"), "\n")+1:]

	code, stderr := r.claude("Edit", map[string]any{"file_path": progress, "old_string": old, "new_string": rewritten})
	expectGuard(t, "an Edit of entry 1", code, stderr, "refused this Edit of .small/progress.small.yml", "small/append-only", "progress entry 1",
		"instead: leave every progress entry the file holds at HEAD exactly as it is", "append a new entry at the end", "git show HEAD:.small/progress.small.yml")
	if out := r.Git("show", "HEAD:"+progressPath); out != strings.TrimSpace(content) {
		t.Errorf("the advice's git show prints another file:\n%s", out)
	}

	code, stderr = r.claude("Edit", map[string]any{"file_path": progress, "old_string": last, "new_string": last + appendedEntry})
	expectGuard(t, "an Edit that appends (the advice)", code, stderr)
	code, stderr = r.claude("Write", map[string]any{"file_path": progress, "content": content + appendedEntry})
	expectGuard(t, "a Write that appends", code, stderr)
	code, stderr = r.claude("Write", map[string]any{"file_path": progress, "content": content})
	expectGuard(t, "a Write of the file as it is", code, stderr)
	code, stderr = r.claude("MultiEdit", map[string]any{"file_path": progress, "edits": []any{
		map[string]any{"old_string": last, "new_string": last + appendedEntry},
		map[string]any{"old_string": old, "new_string": rewritten},
	}})
	expectGuard(t, "a MultiEdit whose second edit rewrites entry 1", code, stderr, "refused this MultiEdit", "small/append-only")
	code, stderr = r.claude("MultiEdit", map[string]any{"file_path": progress, "edits": []any{
		map[string]any{"old_string": last, "new_string": last + appendedEntry},
		map[string]any{"old_string": "go vet ./... is clean", "new_string": "go test ./... passes"},
	}})
	expectGuard(t, "a MultiEdit whose second edit is inside the first's new_string", code, stderr, "Cannot edit file: edits[1].old_string is a substring", "the MultiEdit tool fails on this call")
	code, stderr = r.claude("MultiEdit", map[string]any{"file_path": progress, "edits": []any{
		map[string]any{"old_string": last, "new_string": last + appendedEntry},
	}})
	expectGuard(t, "a MultiEdit that appends", code, stderr)
	code, stderr = r.claude("Edit", map[string]any{"file_path": progress, "old_string": "no such text", "new_string": "x"})
	expectGuard(t, "an Edit whose old_string is not there", code, stderr, "String to replace not found", "the Edit tool fails on this call", "instead: read the file again")

	intent := r.Path(".small/intent.small.yml")
	code, stderr = r.claude("Edit", map[string]any{"file_path": intent, "old_string": "small_version", "new_string": "small_version", "replace_all": true})
	expectGuard(t, "an Edit that changes nothing", code, stderr, "No changes to make")
	code, stderr = r.claude("Write", map[string]any{"file_path": intent, "content": r.Read(".small/intent.small.yml") + "# an agent's note\n"})
	expectGuard(t, "a Write of the intent", code, stderr, "small/ownership", "Claude Code's Write tool, judged before it writes",
		"instead: intent and constraints are a human's to change", "write the change you propose to proposals/intent.small.yml")
	code, stderr = r.claude("Write", map[string]any{"file_path": r.Path("proposals/intent.small.yml"), "content": r.Read(".small/intent.small.yml") + "# an agent's note\n"})
	expectGuard(t, "the proposal the advice names", code, stderr)
	code, stderr = r.claude("Write", map[string]any{"file_path": r.Path(".small-hook.yml"), "content": "rules:\n  small/append-only: off\n"})
	expectGuard(t, "a Write of .small-hook.yml", code, stderr, "small/ownership", "small-hook's policy files are a human's to change")

	code, stderr = r.claude("Write", map[string]any{"file_path": r.Path(".small/plan.small.yml"), "content": "small_version: \"1.0.0\"\nowner: agent\ntasks:\n  - title: no id\n"})
	expectGuard(t, "a plan that breaks its schema", code, stderr, "small/schema")
	code, stderr = r.claude("Write", map[string]any{"file_path": r.Path(".small/notes.md"), "content": "scratch\n"})
	expectGuard(t, "a file SMALL's layout does not allow", code, stderr, "small/layout")
	code, stderr = r.claude("Write", map[string]any{"file_path": r.Path("examples/demo/.small/progress.small.yml"), "content": "small_version: \"1.0.0\"\nowner: agent\nentries: []\n"})
	expectGuard(t, "the first file of a new workspace", code, stderr)
	code, stderr = r.claude("Write", map[string]any{"file_path": r.Path("README.md"), "content": "anything\n"})
	expectGuard(t, "a file nothing governs", code, stderr)

	// A warning does not refuse a write: an entry of another run's replay
	// id is small/replay-id's warning in the staged check, and passes.
	otherRun := strings.Replace(appendedEntry, "ab1497cf", "00000000", 1)
	r.Write(progressPath, content+otherRun)
	r.Git("add", progressPath)
	if _, out, _ := r.check(nil, "check", "--format", "json"); !strings.Contains(out, `"small/replay-id"`) || !strings.Contains(out, `"warning"`) {
		t.Fatalf("the staged check gives no replay-id warning, so this proves nothing:\n%s", out)
	}
	r.Git("checkout", "HEAD", "--", progressPath)
	code, stderr = r.claude("Write", map[string]any{"file_path": progress, "content": content + otherRun})
	expectGuard(t, "a write with a warning", code, stderr)
}

// TestGuardJudgesSMPWrites feeds edits of a knowledge artifact to the
// guard: a rewritten provenance entry and stripped frontmatter are
// refused; an update recorded as the advice says passes.
func TestGuardJudgesSMPWrites(t *testing.T) {
	r, _ := smpRepo(t)
	file := r.Path(artifactPath)
	v3 := r.Read(artifactPath)
	code, stderr := r.claude("Edit", map[string]any{"file_path": file, "old_string": "message: Added summary", "new_string": "message: Rewritten"})
	expectGuard(t, "an Edit of a provenance entry", code, stderr, "smp/append-only", "instead: leave every provenance entry the artifact holds at HEAD exactly as it is",
		"append a new entry (action: updated)", "raise version by one")
	updated := strings.Replace(strings.Replace(v3, "version: 3", "version: 4", 1), "\n---\n\n# LLM",
		"\n  - agent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'\n    action: updated\n    timestamp: '2026-11-22T10:09:09.000Z'\n---\n\n# LLM", 1)
	code, stderr = r.claude("Write", map[string]any{"file_path": file, "content": updated + "\nA paragraph the update adds.\n"})
	expectGuard(t, "an update recorded as the advice says", code, stderr)
	code, stderr = r.claude("Write", map[string]any{"file_path": file, "content": "# Just markdown\n"})
	expectGuard(t, "a Write that strips the frontmatter", code, stderr, "smp/undeclared", "instead: keep the artifact's SMP frontmatter")
	code, stderr = r.claude("Write", map[string]any{"file_path": r.Path("notes/artifacts/new.md"), "content": "---\ntype: knowledge-artifact\nsmp: '1.0'\n---\n# New\n"})
	expectGuard(t, "a new artifact that breaks its schema", code, stderr, "smp/schema")
}

// TestGuardRefusesSecretsWithoutEchoingThem writes a token into governed
// state: refused, the token never printed whole or in part; the same
// write without it passes. A file nothing governs is scanned only with
// secrets.scope: staged, as the staged check scans it.
func TestGuardRefusesSecretsWithoutEchoingThem(t *testing.T) {
	r := workspaceRepo(t)
	progress := r.Path(progressPath)
	content := r.Read(progressPath)
	withToken := strings.Replace(appendedEntry, "go vet ./... is clean", "pushed with "+fakeGitHub, 1)
	code, stderr := r.claude("Write", map[string]any{"file_path": progress, "content": content + withToken})
	expectGuard(t, "a progress entry with a token", code, stderr, "secrets/github-pat", "instead: remove the secret from what you write")
	for i := 0; i+12 <= len(fakeGitHub); i++ {
		if strings.Contains(stderr, fakeGitHub[i:i+12]) {
			t.Fatalf("the refusal repeats a piece of the token:\n%s", stderr)
		}
	}
	code, stderr = r.claude("Write", map[string]any{"file_path": progress, "content": content + appendedEntry})
	expectGuard(t, "the entry without the token (the advice)", code, stderr)

	config := r.Path("src/config.js")
	code, stderr = r.claude("Write", map[string]any{"file_path": config, "content": "const token = '" + fakeGitHub + "';\n"})
	expectGuard(t, "a token in a file nothing governs", code, stderr)
	r.Write(".small-hook.yml", "secrets:\n  scope: staged\n")
	r.Write("analysis.ipynb", `{"cells": [{"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {}, "outputs": [], "source": ["print(1)"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	r.Commit("scan every file")
	code, stderr = r.claude("Write", map[string]any{"file_path": config, "content": "const token = '" + fakeGitHub + "';\n"})
	expectGuard(t, "a token in any file with secrets.scope: staged", code, stderr, "secrets/github-pat")
	notebook := r.Path("analysis.ipynb")
	code, stderr = r.claude("NotebookEdit", map[string]any{"notebook_path": notebook, "cell_id": "c1", "new_source": "token = '" + fakeGitHub + "'"})
	expectGuard(t, "a NotebookEdit that writes a token into a cell", code, stderr, "refused this NotebookEdit of analysis.ipynb", "secrets/github-pat")
	code, stderr = r.claude("NotebookEdit", map[string]any{"notebook_path": notebook, "cell_id": "c1", "new_source": "token = os.environ['TOKEN']"})
	expectGuard(t, "the cell reading the token at run time (the advice)", code, stderr)
}

// TestGuardFindsTheFileAWriteLandsIn checks the paths a write names: a
// relative one, a link into governed state, a file of another worktree,
// git's own directory, a hook core.hooksPath names, a file outside any
// repository, and a tool the guard does not judge.
func TestGuardFindsTheFileAWriteLandsIn(t *testing.T) {
	r := workspaceRepo(t)
	content := r.Read(progressPath)
	old, rewritten := rewrittenEntry(content)
	rewrite := strings.Replace(content, old, rewritten, 1)

	code, stderr := r.claude("Write", map[string]any{"file_path": progressPath, "content": rewrite})
	expectGuard(t, "a relative path", code, stderr, "small/append-only")
	if err := os.Symlink(filepath.Join(".small", "progress.small.yml"), r.Path("progress-link.yml")); err != nil {
		t.Fatal(err)
	}
	code, stderr = r.claude("Write", map[string]any{"file_path": r.Path("progress-link.yml"), "content": rewrite})
	expectGuard(t, "a link to the progress file", code, stderr, "refused this Write of .small/progress.small.yml", "small/append-only")

	other := filepath.Join(t.TempDir(), "other")
	r.Git("worktree", "add", "-q", "-b", "other", other)
	code, stderr = r.claude("Write", map[string]any{"file_path": filepath.Join(other, ".small", "progress.small.yml"), "content": rewrite})
	expectGuard(t, "the progress file of another worktree", code, stderr, "small/append-only")

	// GIT_DIR in the session names another repository: the file's own
	// repository judges it all the same.
	elsewhere := newTestRepo(t)
	code, stderr = r.guard(map[string]string{"GIT_DIR": elsewhere.Path(".git"), "GIT_WORK_TREE": elsewhere.Dir}, "claude",
		hookInput(t, "claude", r.Dir, "Write", map[string]any{"file_path": r.Path(progressPath), "content": rewrite}))
	expectGuard(t, "a write with GIT_DIR set to another repository", code, stderr, "small/append-only")

	code, stderr = r.claude("Write", map[string]any{"file_path": r.Path(".git/hooks/pre-commit"), "content": "#!/bin/sh\nexit 0\n"})
	expectGuard(t, "a hook in .git", code, stderr, "it writes inside a git directory")
	code, stderr = r.claude("Edit", map[string]any{"file_path": r.Path(".git/config"), "old_string": "[core]", "new_string": "[core]\n\thooksPath = /dev/null"})
	expectGuard(t, "git's configuration", code, stderr, "it writes inside a git directory")
	r.Git("config", "core.hooksPath", ".githooks")
	code, stderr = r.claude("Write", map[string]any{"file_path": r.Path(".githooks/commit-msg"), "content": "#!/bin/sh\nexit 0\n"})
	expectGuard(t, "a hook core.hooksPath names", code, stderr, "one of the hooks git runs (core.hooksPath is")
	code, stderr = r.claude("Write", map[string]any{"file_path": r.Path(".githooks/README.md"), "content": "notes\n"})
	expectGuard(t, "another file of the hooks directory", code, stderr)

	code, stderr = r.claude("Write", map[string]any{"file_path": filepath.Join(t.TempDir(), ".small", "progress.small.yml"), "content": "x"})
	expectGuard(t, "a file outside any repository", code, stderr)
	code, stderr = r.claude("Read", map[string]any{"file_path": r.Path(progressPath)})
	expectGuard(t, "a Read", code, stderr)
}

// TestGuardServesGeminiCLI feeds Gemini CLI's write_file, replace and
// run_shell_command calls to the guard.
func TestGuardServesGeminiCLI(t *testing.T) {
	r := workspaceRepo(t)
	progress := r.Path(progressPath)
	content := r.Read(progressPath)
	old, rewritten := rewrittenEntry(content)
	gemini := func(tool string, input map[string]any) (int, string) {
		return r.guard(nil, "gemini", hookInput(t, "gemini", r.Dir, tool, input))
	}
	code, stderr := gemini("replace", map[string]any{"file_path": progress, "old_string": old, "new_string": rewritten})
	expectGuard(t, "a replace of entry 1", code, stderr, "refused this replace of .small/progress.small.yml", "small/append-only")
	code, stderr = gemini("write_file", map[string]any{"file_path": progress, "content": content + appendedEntry})
	expectGuard(t, "a write_file that appends", code, stderr)
	code, stderr = gemini("replace", map[string]any{"file_path": progress, "old_string": "status: completed", "new_string": "status: done"})
	expectGuard(t, "a replace whose old_string occurs more often than expected", code, stderr,
		"Gemini CLI would ask the model to correct this call, and what it would then write cannot be judged", "instead: read the file again")
	code, stderr = gemini("run_shell_command", map[string]any{"command": "git commit --no-verify -m x", "dir_path": "."})
	expectGuard(t, "a commit without the hooks", code, stderr, "refused this run_shell_command command", "--no-verify (-n) skips")
}

// TestGuardRefusesCommandsThatSwitchTheChecksOff feeds Claude Code's Bash
// calls to the guard, and checks that what the advice says to run instead
// passes.
func TestGuardRefusesCommandsThatSwitchTheChecksOff(t *testing.T) {
	r := workspaceRepo(t)
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	r.Git("push", "-q", "origin", "main")
	r.Git("remote", "set-head", "origin", "main")
	bash := func(command string) (int, string) {
		return r.claude("Bash", map[string]any{"command": command, "description": "run"})
	}

	for _, tc := range []struct{ command, want, instead, followed string }{
		{"git add -A && git commit --no-verify -m 'progress'", "--no-verify (-n) skips", "run the same git commit without --no-verify", "git add -A && git commit -m 'progress'"},
		{"git push --force origin main", "force-pushing main (the default branch of origin)", "push to a new branch instead (git push origin HEAD:refs/heads/<new-branch>)", "git push origin HEAD:refs/heads/agent-work"},
		{"git -c core.hooksPath=/dev/null commit -m x", "git -c changes core.hooksPath", "run git without changing core.hooksPath", "git commit -m x"},
		{"SKIP=small-hook-commit-msg git commit -m x", "skip small-hook's hook small-hook-commit-msg", "run the command without naming small-hook's hooks in SKIP", "SKIP=flake8 git commit -m x"},
		{`git commit -m "tidy" -m "Small-Actor: human"`, "claims Small-Actor: human", "commit without the Small-Actor: human trailer", `git commit -m "tidy" -m "Small-Actor: agent"`},
		{"git replace HEAD~1 HEAD", "git replace makes git show another object", "leave the history as it is; correct a file with a new commit", "git commit -m fix"},
		{"small-hook uninstall", "removes the git hooks", "leave small-hook installed", "small-hook check"},
	} {
		code, stderr := bash(tc.command)
		expectGuard(t, tc.command, code, stderr, "refused this Bash command", tc.want, "instead: "+tc.instead)
		code, stderr = bash(tc.followed)
		expectGuard(t, tc.followed+" (the advice)", code, stderr)
	}

	r.Write(".small-hook.yml", "push:\n  protect: [release/*]\n")
	r.Commit("protect releases")
	code, stderr := bash("git push origin +HEAD:refs/heads/release/1.0")
	expectGuard(t, "a force-push of a branch push.protect names", code, stderr, "force-pushing release/1.0 (protected by push.protect in .small-hook.yml)")
	code, stderr = bash("git push -f origin feature")
	expectGuard(t, "a force-push of a branch nobody protects", code, stderr)
}

// TestGuardInputErrors checks what the guard does with input it cannot
// judge: exit 1 (the agent goes on and shows the error to the user), the
// problem named.
func TestGuardInputErrors(t *testing.T) {
	r := workspaceRepo(t)
	for input, want := range map[string]string{
		"not json": "reading Claude Code's hook input",
		`{"tool_name":"Write","tool_input":{"content":"x"}}`: "reading Claude Code's Write call: it has no file_path",
		"": "reading Claude Code's hook input: EOF",
	} {
		code, stderr := r.guard(nil, "claude", input)
		if code != exitCouldNotJudge || !strings.Contains(stderr, want) {
			t.Errorf("%q: exit %d, %q; want exit %d and %q", input, code, stderr, exitCouldNotJudge, want)
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"guard", "--agent", "cursor"}, &env{stdin: strings.NewReader("{}"), stdout: &out, stderr: &errOut, dir: r.Dir, getenv: func(string) string { return "" }}); code != exitFailure || !strings.Contains(errOut.String(), "--agent") {
		t.Errorf("an unknown agent: exit %d, %s", code, errOut.String())
	}
}

// TestGuardAsClaudeCodeRunsIt runs the built binary the way Claude Code
// runs a hook: the command from .claude/settings.json through a shell in
// the project's directory, the tool call on standard input; exit code 2
// and standard error are what Claude Code reads.
func TestGuardAsClaudeCodeRunsIt(t *testing.T) {
	r := workspaceRepo(t)
	var settings struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct{ Command string }
		}
	}
	if code, out, errOut := r.check(nil, "install", "--agent", "claude"); code != exitOK {
		t.Fatalf("install: %d %s %s", code, out, errOut)
	}
	if err := json.Unmarshal([]byte(r.Read(".claude/settings.json")), &settings); err != nil {
		t.Fatal(err)
	}
	command := settings.Hooks["PreToolUse"][0].Hooks[0].Command
	old, rewritten := rewrittenEntry(r.Read(progressPath))
	input := hookInput(t, "claude", r.Dir, "Edit", map[string]any{"file_path": r.Path(progressPath), "old_string": old, "new_string": rewritten})
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = r.Dir
	cmd.Env = append(os.Environ(), binPATH(t))
	cmd.Stdin = strings.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	exit, _ := err.(*exec.ExitError)
	if exit == nil || exit.ExitCode() != 2 || !strings.Contains(stderr.String(), "small/append-only") || stdout.Len() > 0 {
		t.Fatalf("%s: %v, stdout %q, stderr:\n%s", command, err, stdout.String(), stderr.String())
	}
}

// TestInstallAgentGuard installs the guard into a project's Claude Code
// settings that hold other hooks, into a user's Gemini CLI settings, and
// uninstalls both: each file gains the guard's hook once and loses exactly
// it.
func TestInstallAgentGuard(t *testing.T) {
	r := workspaceRepo(t)
	mine := `{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "./scripts/check-bash.sh"
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "notify-send done"
          }
        ]
      }
    ]
  }
}
`
	r.Write(".claude/settings.json", mine)
	home := t.TempDir()
	vars := map[string]string{"HOME": home}
	for i := 0; i < 2; i++ {
		code, out, errOut := r.check(vars, "install", "--agent", "claude", "--repo", "examples")
		if code != exitOK || !strings.Contains(out, "Claude Code guard: "+[]string{"installed", "unchanged"}[i]) {
			t.Fatalf("install %d: exit %d\n%s%s", i+1, code, out, errOut)
		}
	}
	got := r.Read(".claude/settings.json")
	if strings.Count(got, "small-hook guard --agent claude") != 1 || !strings.Contains(got, "./scripts/check-bash.sh") || !strings.Contains(got, "notify-send done") || !strings.HasPrefix(got, "{\n  \"model\": \"opus\",") {
		t.Errorf("the project's settings:\n%s", got)
	}
	if code, out, errOut := r.check(vars, "install", "--agent", "gemini", "--user"); code != exitOK || !strings.Contains(out, filepath.Join(home, ".gemini", "settings.json")) {
		t.Fatalf("install --user: exit %d\n%s%s", code, out, errOut)
	}
	user := readFile(t, filepath.Join(home, ".gemini", "settings.json"))
	if !strings.Contains(user, `"BeforeTool"`) || !strings.Contains(user, `guard --agent gemini`) || !strings.Contains(user, `"name": "small-hook-guard"`) {
		t.Errorf("the user's settings:\n%s", user)
	}

	settings := r.Path(".claude/settings.json")
	code, stderr := r.claude("Write", map[string]any{"file_path": settings, "content": mine})
	expectGuard(t, "a Write that takes the guard out of the settings", code, stderr, "takes small-hook's guard out of the agent's settings", "instead: leave the guard's hook as it is")
	code, stderr = r.claude("Edit", map[string]any{"file_path": settings, "old_string": `"model": "opus"`, "new_string": `"model": "sonnet"`})
	expectGuard(t, "an Edit that keeps the guard", code, stderr)

	if code, out, errOut := r.check(vars, "uninstall", "--agent", "claude"); code != exitOK || !strings.Contains(out, "Claude Code guard: removed") {
		t.Fatalf("uninstall: exit %d\n%s%s", code, out, errOut)
	}
	if got := r.Read(".claude/settings.json"); got != mine {
		t.Errorf("uninstall left\n%s\nwant\n%s", got, mine)
	}
	if code, out, errOut := r.check(vars, "uninstall", "--agent", "gemini", "--user"); code != exitOK || !strings.Contains(out, "removed") {
		t.Fatalf("uninstall --user: exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(home, ".gemini", "settings.json")); !os.IsNotExist(err) {
		t.Errorf("the user's settings file, which held only the guard, is still there: %v", err)
	}
	for _, args := range [][]string{{"install", "--user"}, {"install", "--agent", "cursor"}, {"install", "--agent", "claude", "--force"}} {
		if code, _, errOut := r.check(vars, args...); code != exitFailure || errOut == "" {
			t.Errorf("%v: exit %d, %s", args, code, errOut)
		}
	}
}
