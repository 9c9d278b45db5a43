package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// conflictingBranches returns a workspace repository where branch side
// and main each appended one entry (side's at 10:21, main's at 10:22),
// on main, with `git merge side` stopped on the conflict in the progress
// file. It also returns the progress file as it was where they forked.
func conflictingBranches(t *testing.T, hooks bool) (*testRepo, string) {
	t.Helper()
	r := workspaceRepo(t)
	if hooks {
		if out, ok := runIn(t, r.Dir, binEnv(t), smallHook.path(t), "install"); !ok {
			t.Fatalf("install: %s", out)
		}
	}
	fork := r.Read(progressPath)
	r.Git("checkout", "-q", "-b", "side")
	appendProgress(r, "side's entry", 21)
	r.Git("checkout", "-q", "main")
	appendProgress(r, "main's entry", 22)
	if out, ok := runIn(t, r.Dir, binEnv(t), "git", "merge", "side"); ok || !strings.Contains(out, "CONFLICT") {
		t.Fatalf("the merge did not stop on a conflict:\n%s", out)
	}
	return r, fork
}

// resolutions of the conflict: the fork's progress file plus entries.
var resolutions = []struct {
	name    string
	entries string
	// appendOnly says whether small/append-only reports the resolution:
	// "yes", "no", or "" where the rules of a merge's junctions decide.
	appendOnly string
}{
	{"both sides in time order", progressEntry("side's entry", 21) + progressEntry("main's entry", 22), "no"},
	{"ours, then theirs", progressEntry("main's entry", 22) + progressEntry("side's entry", 21), ""},
	{"theirs dropped", progressEntry("main's entry", 22), "yes"},
	{"ours rewritten", progressEntry("side's entry", 21) + progressEntry("main's entry, rewritten", 22), "yes"},
}

// TestMergeOfTwoAppendingBranchesCommitsThroughTheHooks: resolved in time
// order, the conflicted merge of two appending branches is committed
// through the native pre-commit and commit-msg hooks, without --no-verify.
func TestMergeOfTwoAppendingBranchesCommitsThroughTheHooks(t *testing.T) {
	r, fork := conflictingBranches(t, true)
	r.Write(progressPath, fork+resolutions[0].entries)
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, binEnv(t), "git", "commit", "--no-edit"); !ok {
		t.Fatalf("the merge resolved in time order was refused:\n%s", out)
	}
	if parents := strings.Fields(r.Git("log", "-1", "--format=%P")); len(parents) != 2 {
		t.Fatalf("HEAD is not the merge commit: parents %v", parents)
	}
	r2, fork := conflictingBranches(t, true)
	r2.Write(progressPath, fork+resolutions[2].entries)
	r2.Git("add", "-A")
	if out, ok := runIn(t, r2.Dir, binEnv(t), "git", "commit", "--no-edit"); ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("a merge that drops the other side's entry was committed:\n%s", out)
	}
}

// verdict is what a check decided, without the wording (which names the
// commit in range mode and "this commit" in staged mode).
func verdict(t *testing.T, out string, commit string) []string {
	t.Helper()
	var v []string
	for _, f := range decodeReport(t, out).Findings {
		if commit != "" && f.Commit != commit {
			continue
		}
		v = append(v, fmt.Sprintf("%s %s %s:%d", f.Severity, f.Rule, f.Path, f.Line))
	}
	slices.Sort(v)
	return v
}

// TestStagedAndRangeVerdictsOnAMergeAgree judges each resolution of a real
// conflict twice: staged while the merge is in progress (the commit-msg
// stage, which knows the actor) and in range mode once it is committed.
func TestStagedAndRangeVerdictsOnAMergeAgree(t *testing.T) {
	for _, res := range resolutions {
		t.Run(res.name, func(t *testing.T) {
			r, fork := conflictingBranches(t, false)
			r.Write(progressPath, fork+res.entries)
			r.Git("add", "-A")
			msg := filepath.Join(t.TempDir(), "MERGE_MSG")
			if err := os.WriteFile(msg, []byte("Merge branch 'side'\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			stagedCode, stagedOut, errOut := r.check(nil, "check", "--commit-msg", msg, "--format", "json")
			if stagedCode == exitFailure {
				t.Fatalf("staged check: %s", errOut)
			}
			r.Git("commit", "-q", "--no-verify", "-F", msg)
			merge := r.Git("rev-parse", "HEAD")
			rangeCode, rangeOut, errOut := r.check(nil, "check", "--base", "HEAD^1", "--format", "json")
			if rangeCode == exitFailure {
				t.Fatalf("range check: %s", errOut)
			}
			staged, ranged := verdict(t, stagedOut, ""), verdict(t, rangeOut, merge)
			if !slices.Equal(staged, ranged) {
				t.Errorf("the verdicts differ:\nstaged %q\nrange  %q", staged, ranged)
			}
			failed := slices.ContainsFunc(staged, func(f string) bool { return strings.HasPrefix(f, "error small/append-only") })
			if res.appendOnly != "" && failed != (res.appendOnly == "yes") {
				t.Errorf("small/append-only reported: %v, want %s\n%s", failed, res.appendOnly, stagedOut)
			}
		})
	}
}
