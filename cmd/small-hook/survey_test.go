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
