package main

import (
	"strings"
	"testing"
)

// TestAllUsesTheWorkingTreesConfiguration: check --all, the user's own
// survey, uses the .small-hook.yml the user is editing (README's exclude:
// example) and says when it is not staged; --all --rev uses the
// revision's.
func TestAllUsesTheWorkingTreesConfiguration(t *testing.T) {
	r := newTestRepo(t)
	legacy := "examples/legacy/artifacts/llm-context-research.md"
	r.Write(legacy, strings.Replace(smpFixture(t, "llm-context-research.v1.md"), "version: 1", "version: 0", 1))
	r.Commit("legacy examples")
	expectError(t, "no configuration", r, "smp/schema "+legacy, "check", "--all", "--format", "json")

	r.Write(".small-hook.yml", "exclude:\n  - examples/legacy/\n")
	const note = "note: this survey used the working tree's .small-hook.yml, which is not staged (a commit is checked with the one HEAD holds)"
	code, out, errOut := r.check(nil, "check", "--all")
	if code != exitOK || !strings.Contains(out, note) {
		t.Errorf("an exclude not yet staged: exit %d\n%s%s", code, out, errOut)
	}
	expectError(t, "--rev HEAD", r, "smp/schema "+legacy, "check", "--all", "--rev", "HEAD", "--format", "json")
	r.Git("add", ".small-hook.yml")
	code, out, errOut = r.check(nil, "check", "--all")
	if code != exitOK || strings.Contains(out, "note:") {
		t.Errorf("the exclude staged: exit %d\n%s%s", code, out, errOut)
	}
	r.Remove(".small-hook.yml")
	code, out, errOut = r.check(nil, "check", "--all", "--format", "json")
	if code != exitFindings || !contains(findingsAt(decodeReport(t, out)), "smp/schema "+legacy) {
		t.Errorf("the configuration deleted in the work tree: exit %d\n%s%s", code, out, errOut)
	}
	if _, out, _ := r.check(nil, "check", "--all"); !strings.Contains(out, "note: this survey used no .small-hook.yml: the working tree has none, though the index has one") {
		t.Errorf("the deletion is not noted:\n%s", out)
	}
}

// TestHandRunCheckSaysWhatItDidNotCheck: the staged check run by hand
// says which governed files have changes it does not see, and following
// its advice checks them; hooks say nothing of it. A named file that
// exists nowhere is exit 2, one the index does not hold is a note.
func TestHandRunCheckSaysWhatItDidNotCheck(t *testing.T) {
	r := workspaceRepo(t)
	progress := r.Read(progressPath)
	r.Write(progressPath, strings.Replace(progress, "evidence: Initialized .small workspace", "evidence: Initialised .small workspace", 1))
	r.Write("README.md", "not governed\n")
	r.Write("artifacts/notes.md", "# Notes, not an artifact\n")
	const note = "note: 1 governed file has changes that are not staged, so not checked (.small/progress.small.yml): stage it (git add .small/progress.small.yml) to check it"
	code, out, errOut := r.check(nil, "check")
	if code != exitOK || !strings.Contains(out, note) {
		t.Fatalf("by hand: exit %d\n%s%s", code, out, errOut)
	}
	for name, run := range map[string]func() (int, string, string){
		"inside git commit": func() (int, string, string) {
			return r.check(map[string]string{"GIT_INDEX_FILE": ".git/index"}, "check")
		},
		"the pre-commit framework": func() (int, string, string) { return r.check(nil, "check", "README.md") },
		"the commit-msg stage": func() (int, string, string) {
			r.Write(".git/MSG", "edit\n")
			return r.check(nil, "check", "--commit-msg", r.Path(".git/MSG"))
		},
	} {
		if code, out, errOut := run(); code != exitOK || strings.Contains(out, "not staged") {
			t.Errorf("%s: exit %d\n%s%s", name, code, out, errOut)
		}
	}
	r.Git("add", ".small/progress.small.yml")
	code, out, _ = r.check(nil, "check", "--format", "json")
	if code != exitFindings || !contains(rulesOf(decodeReport(t, out)), "small/append-only") {
		t.Errorf("after git add: exit %d\n%s", code, out)
	}

	code, out, errOut = r.check(nil, "check", "no/such/file.yml")
	if code != exitFailure || !strings.Contains(errOut, "no/such/file.yml: no such file in the index or in the work tree") {
		t.Errorf("a name that exists nowhere: exit %d\n%s%s", code, out, errOut)
	}
	r.Git("reset", "-q", progressPath)
	r.Git("checkout", "-q", "--", progressPath)
	code, out, errOut = r.check(nil, "check", "artifacts/notes.md")
	if code != exitOK || !strings.Contains(out, "note: 1 named file is not in the index, so not checked: stage it (git add artifacts/notes.md) to check it") {
		t.Errorf("a name the index does not hold: exit %d\n%s%s", code, out, errOut)
	}
}
