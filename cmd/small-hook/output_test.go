package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// messageFile writes a commit message for --commit-msg.
func messageFile(t *testing.T, msg string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "COMMIT_EDITMSG")
	if err := os.WriteFile(path, []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// lastLine returns the last line of output.
func lastLine(out string) string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	return lines[len(lines)-1]
}

func TestReportHookStagesNameTheToolAndStayQuiet(t *testing.T) {
	msg := messageFile(t, "work\n\nSmall-Actor: agent\n")
	cases := []struct {
		name   string
		change func(r *testRepo)
		code   int
		// pre and commitMsg are the whole stdout of the two stages.
		pre, commitMsg string
	}{
		{"a change to no governed file prints nothing", func(r *testRepo) { r.Write("README.md", "docs\n") }, exitOK, "", ""},
		{"a legitimate append says so", func(r *testRepo) { r.Write(progressPath, r.Read(progressPath)+appendedEntry) }, exitOK,
			"small-hook (pre-commit stage): no problems in 1 file\n", "small-hook (commit-msg stage): no problems in 1 file\n"},
		{"a refusal names the tool and the stage", rewriteProgress, exitFindings,
			"small-hook (pre-commit stage): 1 error in 1 file (1 file checked)", "small-hook (commit-msg stage): 1 error in 1 file (1 file checked)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := workspaceRepo(t)
			tc.change(r)
			r.Git("add", "-A")
			for _, stage := range []struct {
				args []string
				want string
			}{{[]string{"check"}, tc.pre}, {[]string{"check", "--commit-msg", msg}, tc.commitMsg}} {
				code, out, errOut := r.check(nil, stage.args...)
				if code != tc.code || errOut != "" {
					t.Fatalf("%v: exit %d, stderr %q, want exit %d", stage.args, code, errOut, tc.code)
				}
				if tc.code == exitOK && out != stage.want {
					t.Errorf("%v: stdout %q, want %q", stage.args, out, stage.want)
				}
				if tc.code == exitFindings && (lastLine(out) != stage.want || !strings.Contains(out, "error small/append-only:")) {
					t.Errorf("%v: stdout\n%s\nwant the finding, then %q", stage.args, out, stage.want)
				}
			}
		})
	}
}

func TestReportRangeNamesOneCommit(t *testing.T) {
	r := workspaceRepo(t)
	base := r.Git("rev-parse", "HEAD")
	rewriteProgress(r)
	r.Commit("rewrite\n\nSmall-Actor: agent")
	code, out, _ := r.check(nil, "check", "--base", base)
	if code != exitFindings {
		t.Fatalf("exit %d\n%s", code, out)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	tail := strings.Join(lines[len(lines)-2:], "\n")
	want := "checked " + base + "..HEAD (--base)\nsmall-hook (pre-push/CI check): 1 error in 1 file (1 file checked, 1 commit)"
	if tail != want {
		t.Errorf("output ends\n%s\nwant\n%s", tail, want)
	}
}

func TestQuietPrintsOnlyFindings(t *testing.T) {
	r := workspaceRepo(t)
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Git("add", "-A")
	for _, args := range [][]string{{"check", "--quiet"}, {"check", "--quiet", "--all"}, {"check", "--quiet", "--base", "HEAD"}} {
		if code, out, errOut := r.check(nil, args...); code != exitOK || out != "" || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 0 and nothing", args, code, out, errOut)
		}
	}

	rewriteProgress(r)
	r.Git("add", "-A")
	full := filepath.Join(t.TempDir(), "full.txt")
	code, out, _ := r.check(nil, "check", "--quiet", "--output", "text="+full)
	if code != exitFindings || out == "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !strings.HasPrefix(line, progressPath+":") {
			t.Errorf("--quiet printed %q, which is not a finding", line)
		}
	}
	hint := "\nsmall/append-only: restore the entries as they were: an entry is corrected by appending a new entry that supersedes it, and new entries go at the end; " +
		"if the rewrite is intended, a human commits it with SMALL_HOOK_REWRITE=<reason> git commit -m \"<subject>\" -m \"Small-Rewrite: <reason>\" " +
		"(this setup checks the change before the message exists and runs no small-hook commit-msg hook; the pre-push and CI checks read the trailer; small-hook install lets the trailer alone decide)\n"
	if data, err := os.ReadFile(full); err != nil || string(data) != out+hint+"small-hook (pre-commit stage): 1 error in 1 file (1 file checked)\n" {
		t.Errorf("the --output text file is not the full report: %v\n%s", err, data)
	}
	// Machine formats stay complete.
	code, out, _ = r.check(nil, "check", "--quiet", "--format", "json")
	if rep := decodeReport(t, out); code != exitFindings || rep.Summary.Errors != 1 || rep.Summary.Files != 1 {
		t.Errorf("--quiet --format json: exit %d\n%s", code, out)
	}
	code, out, _ = r.check(nil, "check", "--quiet", "--format", "github")
	if code != exitFindings || !strings.HasPrefix(out, "::error file=") || strings.Contains(out, "::notice") {
		t.Errorf("--quiet --format github: exit %d\n%s", code, out)
	}
}

func TestReportErrorsNameTheStageAndWhereTheConfigurationCameFrom(t *testing.T) {
	broken := "attribution:\n  unknwn: human\n"
	cause := `line 2 of %s: unknown key "unknwn" in attribution`
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", broken)
	base := r.Commit("a broken configuration")
	// The committed and the staged copies are broken, the file on disk is
	// fine.
	r.Write(".small-hook.yml", "attribution:\n  unknown: human\n")
	// Here HEAD's copy is fine and the staged one broken.
	s := workspaceRepo(t)
	s.Write(".small-hook.yml", broken)
	s.Git("add", "-A")
	msg := messageFile(t, "work\n")
	cases := []struct {
		repo *testRepo
		args []string
		want string
	}{
		{r, []string{"check"}, "small-hook: pre-commit stage: could not check: " + strings.Replace(cause, "%s", "the .small-hook.yml of HEAD", 1)},
		{r, []string{"check", "--commit-msg", msg}, "small-hook: commit-msg stage: could not check: " + strings.Replace(cause, "%s", "the .small-hook.yml of HEAD", 1)},
		{s, []string{"check"}, "small-hook: pre-commit stage: could not check: " + strings.Replace(cause, "%s", "the staged .small-hook.yml", 1)},
		{s, []string{"check", "--commit-msg", msg}, "small-hook: commit-msg stage: could not check: " + strings.Replace(cause, "%s", "the staged .small-hook.yml", 1)},
		{r, []string{"check", "--base", base}, "small-hook: pre-push/CI check: could not check: " + strings.Replace(cause, "%s", "the .small-hook.yml of "+base, 1)},
		{r, []string{"check", "--all", "--rev", "HEAD"}, "small-hook: whole-tree check: could not check: " + strings.Replace(cause, "%s", "the .small-hook.yml of HEAD", 1)},
	}
	for _, tc := range cases {
		code, out, errOut := tc.repo.check(nil, tc.args...)
		if code != exitFailure || out != "" || !strings.HasPrefix(errOut, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
		errorLinesArePrefixed(t, errOut)
	}

	g := workspaceRepo(t)
	g.Write(".gitleaks.toml", "not toml at all [")
	g.Write(progressPath, g.Read(progressPath)+appendedEntry)
	g.Git("add", "-A")
	code, _, errOut := g.check(nil, "check")
	if code != exitFailure || !strings.HasPrefix(errOut, "small-hook: pre-commit stage: could not check: ") || !strings.Contains(errOut, "the staged .gitleaks.toml") {
		t.Errorf("a broken staged .gitleaks.toml: exit %d, stderr %q", code, errOut)
	}
}

func TestGitHubFormatReportsACheckThatCouldNotRun(t *testing.T) {
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", "secrets:\n  scope: everything\n")
	r.Git("add", "-A")
	cases := []struct {
		name   string
		args   []string
		reason string
	}{
		{"broken configuration", []string{"check", "--format", "github"}, "line 2 of the staged .small-hook.yml: "},
		{"unknown revision", []string{"check", "--format=github", "--base", "no-such-branch"}, "no-such-branch"},
		{"a flag that does not parse", []string{"check", "--format", "github", "--bsae", "HEAD"}, `unknown flag --bsae, did you mean "--base"?`},
		{"a flag without a value", []string{"check", "--format", "github", "--base"}, "--base needs a revision"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			summary := filepath.Join(t.TempDir(), "summary.md")
			code, out, errOut := r.check(map[string]string{"GITHUB_STEP_SUMMARY": summary}, tc.args...)
			if code != exitFailure {
				t.Fatalf("exit %d\n%s%s", code, out, errOut)
			}
			if !strings.HasPrefix(out, "::error::small-hook could not check (exit code 2): ") || !strings.Contains(out, tc.reason) || strings.Count(out, "\n") != 1 {
				t.Errorf("stdout %q lacks the one ::error annotation with %q", out, tc.reason)
			}
			data, err := os.ReadFile(summary)
			if err != nil || !strings.Contains(string(data), "**The check could not run** (exit code 2)") || !strings.Contains(string(data), tc.reason) {
				t.Errorf("step summary (%v):\n%s", err, data)
			}
			errorLinesArePrefixed(t, errOut)
		})
	}
	// Other formats print nothing on stdout when the check cannot run.
	summary := filepath.Join(t.TempDir(), "summary.md")
	if code, out, _ := r.check(map[string]string{"GITHUB_STEP_SUMMARY": summary}, "check", "--format", "json"); code != exitFailure || out != "" {
		t.Errorf("--format json: exit %d, stdout %q", code, out)
	}
	if _, err := os.Stat(summary); err == nil {
		t.Error("--format json wrote a step summary")
	}
}

func TestReportThroughNativeHooks(t *testing.T) {
	r := workspaceRepo(t)
	bin, env := withBinary(t)
	if out, ok := runIn(t, r.Dir, env, bin, "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	r.Write("README.md", "docs\n")
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "docs"); !ok || out != "" {
		t.Errorf("a commit that touches no governed file: ok %v, output %q; want nothing", ok, out)
	}

	// A wrong small_version is the pre-commit stage's to refuse (a rewrite
	// of history it leaves to the commit-msg stage, which reads the
	// message).
	r.Write(progressPath, strings.Replace(r.Read(progressPath), `small_version: "1.0.0"`, `small_version: "2.0"`, 1))
	r.Git("add", "-A")
	out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "bump")
	if ok || !strings.Contains(out, "small-hook (pre-commit stage): 1 error in 1 file (1 file checked)\n") {
		t.Errorf("the pre-commit refusal does not name small-hook and its stage:\n%s", out)
	}
	r.Git("checkout", "-q", "--", ".")
	r.Git("reset", "-q", "--hard")

	// The pre-commit stage cannot know who commits; the commit-msg stage
	// refuses an agent's edit of the human-owned intent (the pre-commit
	// stage, which passes it, leaves the output to the commit-msg stage).
	intent := ".small/intent.small.yml"
	r.Write(intent, strings.Replace(r.Read(intent), "intent: ", "intent: Whatever the agent likes. ", 1))
	r.Git("add", "-A")
	out, ok = runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "edit intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	if ok || strings.Contains(out, "(pre-commit stage)") ||
		!strings.Contains(out, "error small/ownership:") || !strings.Contains(out, "small-hook (commit-msg stage): 1 error in 1 file (1 file checked)\n") {
		t.Errorf("the commit-msg refusal does not name small-hook and its stage:\n%s", out)
	}
}

// TestEveryModeNamesItsStage: the summary line and the errors of a check
// name where it runs, for pushes and histories too, and only the hook
// stages that run on every commit are silent about a change that touches
// no governed file.
func TestEveryModeNamesItsStage(t *testing.T) {
	r := workspaceRepo(t)
	base := r.Git("rev-parse", "HEAD")
	r.Write("README.md", "docs\n")
	r.Commit("docs")
	cases := []struct {
		args  []string
		stage string
	}{
		{[]string{"check", "--base", base}, "pre-push/CI check"},
		{[]string{"check", "--previous", base}, "push check"},
		{[]string{"check", "--history"}, "history check"},
		{[]string{"check", "--ci"}, "pre-push/CI check"},
		{[]string{"check", "--all"}, "whole-tree check"},
	}
	vars := map[string]string{"SMALL_HOOK_BASE": base, "SMALL_HOOK_HEAD": "HEAD"}
	for _, tc := range cases {
		code, out, errOut := r.check(vars, tc.args...)
		if code != exitOK || !strings.HasPrefix(lastLine(out), "small-hook ("+tc.stage+"): no problems in ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want the summary of the %s", tc.args, code, out, errOut, tc.stage)
		}
	}
	// Errors name the stage too.
	r.Write(".small-hook.yml", "secrets:\n  scope: everything\n")
	broken := r.Commit("a broken configuration")
	r.Write(".small-hook.yml", "")
	r.Commit("fixed")
	code, _, errOut := r.check(nil, "check", "--previous", broken)
	if want := "small-hook: push check: could not check: line 2 of the .small-hook.yml of " + broken; code != exitFailure || !strings.HasPrefix(errOut, want) {
		t.Errorf("--previous: exit %d, stderr %q, want %q", code, errOut, want)
	}
	// A history trusts the checkout's own configuration (HEAD), never the
	// head it is asked about: the broken file at --head does not apply...
	if code, out, errOut := r.check(nil, "check", "--history", "--head", broken); code != exitOK {
		t.Errorf("--history --head: exit %d, want the configuration of HEAD\n%s%s", code, out, errOut)
	}
	// ...and a broken one at HEAD is named as HEAD's.
	r.Git("checkout", "-q", broken)
	code, _, errOut = r.check(nil, "check", "--history")
	if want := "small-hook: history check: could not check: line 2 of the .small-hook.yml of HEAD"; code != exitFailure || !strings.HasPrefix(errOut, want) {
		t.Errorf("--history: exit %d, stderr %q, want %q", code, errOut, want)
	}
}

// TestOutputFormatsAreDeclaredOnce: every format of the one table is
// accepted by --format and --output and named by the help and by the
// error for an unknown one.
func TestOutputFormatsAreDeclaredOnce(t *testing.T) {
	r := workspaceRepo(t)
	_, help, _ := r.check(nil, "check", "--help")
	_, _, unknown := r.check(nil, "check", "--output", "xml=out.xml")
	for _, f := range outputFormats() {
		file := filepath.Join(t.TempDir(), "out")
		if code, _, errOut := r.check(nil, "check", "--format", f.name, "--output", f.name+"="+file); code != exitOK {
			t.Errorf("%s: exit %d\n%s", f.name, code, errOut)
		}
		if !strings.Contains(help, f.name) || !strings.Contains(unknown, f.name) {
			t.Errorf("%s is missing from the help or from the error for an unknown format:\n%s\n%s", f.name, help, unknown)
		}
	}
}

// TestOutputFilesAreOpenedBeforeTheCheck: a --output file that cannot be
// written stops the check before it prints anything; a check that cannot
// run leaves no empty file behind and an existing file as it was.
func TestOutputFilesAreOpenedBeforeTheCheck(t *testing.T) {
	r := workspaceRepo(t)
	rewriteProgress(r)
	r.Git("add", "-A")
	missing := filepath.Join(t.TempDir(), "nonexistent", "x.sarif")
	code, out, errOut := r.check(nil, "check", "--output", "sarif="+missing)
	if code != exitFailure || out != "" || !strings.Contains(errOut, "--output sarif="+missing+": ") {
		t.Errorf("an output file that cannot be written: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	dir := t.TempDir()
	fresh, existing := filepath.Join(dir, "fresh.json"), filepath.Join(dir, "existing.json")
	if err := os.WriteFile(existing, []byte("previous report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, _ = r.check(nil, "check", "--base", "no-such-branch", "--output", "json="+fresh, "--output", "json="+existing)
	if _, err := os.Stat(fresh); code != exitFailure || err == nil {
		t.Errorf("a check that could not run: exit %d, and left %s (%v)", code, fresh, err)
	}
	if data := readFile(t, existing); data != "previous report\n" {
		t.Errorf("a check that could not run changed an existing file: %q", data)
	}

	// A check that runs replaces what the file held.
	if code, _, _ := r.check(nil, "check", "--output", "json="+existing); code != exitFindings || !strings.HasPrefix(readFile(t, existing), "{\n") || strings.Contains(readFile(t, existing), "previous report") {
		t.Errorf("exit %d, file %q", code, readFile(t, existing))
	}
}
