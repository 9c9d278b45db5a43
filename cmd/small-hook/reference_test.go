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
	r.Write("README.md", "demo\n")
	base := r.Commit("start")
	for _, step := range []string{"1-init", "2-plan", "3-progress", "4-checkpoint", "5-handoff", "6-reset"} {
		r.copyDir(referenceStep(step), ".small")
		r.Git("add", "-A")
		code, out, errOut := r.check(nil, "check", "--format", "json")
		if rep := decodeReport(t, out); code != exitOK || len(rep.Findings) > 0 {
			t.Fatalf("staged %s: exit %d, findings %v\n%s%s", step, code, findingsOf(rep), out, errOut)
		}
		r.Commit("small: " + step)
	}
	code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
	if rep := decodeReport(t, out); code != exitOK || len(rep.Findings) > 0 || rep.Summary.Commits != 6 {
		t.Fatalf("range: exit %d, %d commits, findings %v\n%s%s", code, rep.Summary.Commits, findingsOf(rep), out, errOut)
	}
}

func TestProgressMigrateIsAccepted(t *testing.T) {
	r := newTestRepo(t)
	r.copyDir(referenceStep("8-legacy"), ".small")
	base := r.Commit("legacy timestamps")
	r.copyDir(referenceStep("9-migrated"), ".small")
	r.Git("add", "-A")
	if code, out, errOut := r.check(nil, "check", "--format", "json"); code != exitOK || len(decodeReport(t, out).Findings) > 0 {
		t.Fatalf("staged migrate: exit %d\n%s%s", code, out, errOut)
	}
	r.Commit("small progress migrate")
	if code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json"); code != exitOK {
		t.Fatalf("range migrate: exit %d\n%s%s", code, out, errOut)
	}
	// Anything near the migration that is not it stays a rewrite.
	for _, edit := range [][2]string{
		{"22:43:00.000000002Z", "22:43:00.000000009Z"},    // ties spread further than migrate spreads them
		{"22:50:00.500000000Z", "22:50:00.400000000Z"},    // another instant
		{"22:43:00.000000003Z", "2026-04-06T21:10:05.0Z"}, // the offset's instant, but not what migrate writes
	} {
		migrated := r.Read(progressPath)
		if !strings.Contains(migrated, edit[0]) {
			t.Fatalf("the fixture no longer holds %s", edit[0])
		}
		r.Git("checkout", "-q", base, "--", ".small")
		r.Write(progressPath, strings.Replace(migrated, edit[0], strings.TrimPrefix(edit[1], "2026-04-06T"), 1))
		r.Git("add", "-A")
		code, out, _ := r.check(nil, "check", "--format", "json")
		if code != exitFindings || !contains(rulesOf(decodeReport(t, out)), "small/append-only") {
			t.Errorf("%s: exit %d, want small/append-only\n%s", edit[1], code, out)
		}
		r.Git("checkout", "-q", "HEAD", "--", ".small")
	}
}

// TestOrphanProgressFixNeedsAHumanRewrite commits the reference CLI's
// repair after `small reset` (`small fix --orphan-progress`, which
// `small check --strict` suggests) as a human and as an agent: one
// problem, one finding, whose advice fits who committed it.
func TestOrphanProgressFixNeedsAHumanRewrite(t *testing.T) {
	cases := []struct {
		name, msg string
		severity  string
		code      int
		// says and lacks are what the finding's message must and must not
		// hold.
		says, lacks []string
	}{
		{"human without trailer", "small fix --orphan-progress", "error", exitFindings,
			[]string{"`small fix --orphan-progress`", "a human", "Small-Rewrite: <reason>"}, []string{"restore"}},
		{"human with trailer", "small fix --orphan-progress\n\nSmall-Rewrite: orphan progress after small reset", "warning", exitOK,
			[]string{"an intended rewrite by a human commit", "Small-Rewrite: orphan progress after small reset"}, []string{"restore", "git commit"}},
		{"agent with trailer", "small fix --orphan-progress\n\nSmall-Rewrite: orphan progress\nCo-Authored-By: Claude <noreply@anthropic.com>", "error", exitFindings,
			[]string{"Small-Rewrite: orphan progress is not enough", "only a human commit may rewrite history", "without the agent's markers"}, []string{"restore"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newTestRepo(t)
			r.copyDir(referenceStep("6-reset"), ".small")
			base := r.Commit("small reset")
			r.copyDir(referenceStep("7-orphan-fix"), ".small")
			r.Git("add", "-A")
			r.Write(".git/MSG", c.msg)
			code, out, errOut := r.check(nil, "check", "--commit-msg", r.Dir+"/.git/MSG", "--format", "json")
			checkRewrites(t, "commit-msg", code, out+errOut, decodeReport(t, out), c.severity, c.code, c.says, c.lacks)
			r.GitEnv(nil, "commit", "-q", "--no-verify", "-F", r.Dir+"/.git/MSG")
			code, out, errOut = r.check(nil, "check", "--base", base, "--format", "json")
			checkRewrites(t, "range", code, out+errOut, decodeReport(t, out), c.severity, c.code, c.says, c.lacks)
		})
	}
	// A pre-commit stage that no commit-msg hook follows (here: no hooks
	// at all) cannot read the message: it refuses and says how this setup
	// marks the rewrite, and SMALL_HOOK_REWRITE makes it a warning.
	r := newTestRepo(t)
	r.copyDir(referenceStep("6-reset"), ".small")
	r.Commit("small reset")
	r.copyDir(referenceStep("7-orphan-fix"), ".small")
	r.Git("add", "-A")
	code, out, _ := r.check(nil, "check", "--format", "json")
	checkRewrites(t, "pre-commit", code, out, decodeReport(t, out), "error", exitFindings,
		[]string{`SMALL_HOOK_REWRITE=<reason> git commit -m "<subject>" -m "Small-Rewrite: <reason>"`, "small-hook install lets the trailer alone decide"}, nil)
	code, out, _ = r.check(map[string]string{"SMALL_HOOK_REWRITE": "orphan progress"}, "check", "--format", "json")
	checkRewrites(t, "pre-commit with SMALL_HOOK_REWRITE", code, out, decodeReport(t, out), "warning", exitOK,
		[]string{"SMALL_HOOK_REWRITE=orphan progress", "the pre-push and CI checks decide"}, nil)
}

// checkRewrites wants exactly one small/append-only finding for the
// repair, at the given severity, naming each of the three entries it
// rewrote with the old and the new task_id, holding says and none of
// lacks.
func checkRewrites(t *testing.T, what string, code int, out string, rep jsonReport, severity string, want int, says, lacks []string) {
	t.Helper()
	var got []string
	for _, f := range rep.Findings {
		if f.Rule == "small/append-only" {
			got = append(got, f.Severity+": "+f.Text())
		}
	}
	if code != want || len(got) != 1 {
		t.Fatalf("%s: exit %d (want %d), %d append-only findings (want 1):\n%s", what, code, want, len(got), out)
	}
	g := got[0]
	if !strings.HasPrefix(g, severity+": ") {
		t.Errorf("%s: want a %s: %s", what, severity, g)
	}
	for _, s := range append([]string{"progress entry 2 (task_id task-2)", "progress entry 5 (task_id task-2)", "task_id task-2 became meta/historical/task-2", "task_id reset became meta/reset"}, says...) {
		if !strings.Contains(g, s) {
			t.Errorf("%s: the finding lacks %q: %s", what, s, g)
		}
	}
	for _, s := range lacks {
		if strings.Contains(g, s) {
			t.Errorf("%s: the finding says %q: %s", what, s, g)
		}
	}
}
