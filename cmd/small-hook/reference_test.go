package main

import (
	"strings"
	"testing"
)

// referenceStep is one state the reference SMALL CLI wrote (testdata).
func referenceStep(name string) string { return "../../testdata/small/workflows/" + name }

// findingsOf returns "severity rule" for every finding of a report.
func findingsOf(rep jsonReport) []string {
	var out []string
	for _, f := range rep.Findings {
		out = append(out, f.Severity+" "+f.Rule)
	}
	return out
}

func TestReferenceWorkflowIsQuiet(t *testing.T) {
	r := newTestRepo(t)
	r.write("README.md", "demo\n")
	base := r.commit("start")
	for _, step := range []string{"1-init", "2-plan", "3-progress", "4-checkpoint", "5-handoff", "6-reset"} {
		r.copyDir(referenceStep(step), ".small")
		r.git("add", "-A")
		code, out, errOut := r.check(nil, "check", "--format", "json")
		if rep := decodeReport(t, out); code != exitOK || len(rep.Findings) > 0 {
			t.Fatalf("staged %s: exit %d, findings %v\n%s%s", step, code, findingsOf(rep), out, errOut)
		}
		r.commit("small: " + step)
	}
	code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
	if rep := decodeReport(t, out); code != exitOK || len(rep.Findings) > 0 || rep.Summary.Commits != 6 {
		t.Fatalf("range: exit %d, %d commits, findings %v\n%s%s", code, rep.Summary.Commits, findingsOf(rep), out, errOut)
	}
}

func TestProgressMigrateIsAccepted(t *testing.T) {
	r := newTestRepo(t)
	r.copyDir(referenceStep("8-legacy"), ".small")
	base := r.commit("legacy timestamps")
	r.copyDir(referenceStep("9-migrated"), ".small")
	r.git("add", "-A")
	if code, out, errOut := r.check(nil, "check", "--format", "json"); code != exitOK || len(decodeReport(t, out).Findings) > 0 {
		t.Fatalf("staged migrate: exit %d\n%s%s", code, out, errOut)
	}
	r.commit("small progress migrate")
	if code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json"); code != exitOK {
		t.Fatalf("range migrate: exit %d\n%s%s", code, out, errOut)
	}
	// Anything near the migration that is not it stays a rewrite.
	for _, edit := range [][2]string{
		{"22:43:00.000000002Z", "22:43:00.000000009Z"},    // ties spread further than migrate spreads them
		{"22:50:00.500000000Z", "22:50:00.400000000Z"},    // another instant
		{"22:43:00.000000003Z", "2026-04-06T21:10:05.0Z"}, // the offset's instant, but not what migrate writes
	} {
		migrated := r.read(progressPath)
		if !strings.Contains(migrated, edit[0]) {
			t.Fatalf("the fixture no longer holds %s", edit[0])
		}
		r.git("checkout", "-q", base, "--", ".small")
		r.write(progressPath, strings.Replace(migrated, edit[0], strings.TrimPrefix(edit[1], "2026-04-06T"), 1))
		r.git("add", "-A")
		code, out, _ := r.check(nil, "check", "--format", "json")
		if code != exitFindings || !contains(rulesOf(decodeReport(t, out)), "small/append-only") {
			t.Errorf("%s: exit %d, want small/append-only\n%s", edit[1], code, out)
		}
		r.git("checkout", "-q", "HEAD", "--", ".small")
	}
}

func TestOrphanProgressFixNeedsAHumanRewrite(t *testing.T) {
	cases := []struct {
		name, msg string
		env       map[string]string
		severity  string // of the append-only findings; "" for a refused commit-msg stage
		code      int
	}{
		{"human without trailer", "small fix --orphan-progress", nil, "error", exitFindings},
		{"human with trailer", "small fix --orphan-progress\n\nSmall-Rewrite: orphan progress after small reset", nil, "warning", exitOK},
		{"agent with trailer", "small fix --orphan-progress\n\nSmall-Rewrite: orphan progress\nCo-Authored-By: Claude <noreply@anthropic.com>", nil, "error", exitFindings},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newTestRepo(t)
			r.copyDir(referenceStep("6-reset"), ".small")
			base := r.commit("small reset")
			r.copyDir(referenceStep("7-orphan-fix"), ".small")
			r.git("add", "-A")
			r.write(".git/MSG", c.msg)
			for what, args := range map[string][]string{
				"commit-msg": {"check", "--commit-msg", r.dir + "/.git/MSG", "--format", "json"},
			} {
				code, out, errOut := r.check(c.env, args...)
				checkRewrites(t, what, code, out+errOut, decodeReport(t, out), c.severity, c.code)
			}
			r.gitEnv(nil, "commit", "-q", "--no-verify", "-F", r.dir+"/.git/MSG")
			code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
			checkRewrites(t, "range", code, out+errOut, decodeReport(t, out), c.severity, c.code)
		})
	}
	// The pre-commit stage cannot read the message: it refuses, unless
	// SMALL_HOOK_REWRITE leaves the verdict to the commit-msg stage.
	r := newTestRepo(t)
	r.copyDir(referenceStep("6-reset"), ".small")
	r.commit("small reset")
	r.copyDir(referenceStep("7-orphan-fix"), ".small")
	r.git("add", "-A")
	code, out, _ := r.check(nil, "check", "--format", "json")
	checkRewrites(t, "pre-commit", code, out, decodeReport(t, out), "error", exitFindings)
	code, out, _ = r.check(map[string]string{"SMALL_HOOK_REWRITE": "orphan progress"}, "check", "--format", "json")
	checkRewrites(t, "pre-commit with SMALL_HOOK_REWRITE", code, out, decodeReport(t, out), "warning", exitOK)
}

// checkRewrites wants one small/append-only finding per entry that
// `small fix --orphan-progress` rewrote (three), each naming the old and
// new task_id, at the given severity, and nothing else of that rule.
func checkRewrites(t *testing.T, what string, code int, out string, rep jsonReport, severity string, want int) {
	t.Helper()
	var got []string
	for _, f := range rep.Findings {
		if f.Rule == "small/append-only" {
			got = append(got, f.Severity+": "+f.Message)
		}
	}
	if code != want || len(got) != 3 {
		t.Fatalf("%s: exit %d (want %d), %d append-only findings (want 3):\n%s", what, code, want, len(got), out)
	}
	for _, g := range got {
		if !strings.HasPrefix(g, severity+": ") || !strings.Contains(g, "task_id") || !strings.Contains(g, "became meta/") {
			t.Errorf("%s: %s", what, g)
		}
	}
}
