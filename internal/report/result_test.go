package report

import (
	"testing"

	"github.com/small-hook/small-hook/rules"
)

// commit is a full commit id used by range-mode findings.
const commit = "0123456789abcdef0123456789abcdef01234567"

// sample is a range-mode result with every kind of finding the formats
// must handle: line and whole-file findings, a commit, a secret family
// member, and characters each format must escape.
func sample() *Result {
	return &Result{
		Tool: "small-hook", Version: "v1.2.3", Mode: "range", Stage: "pre-push/CI check", Files: 2, Commits: 3,
		Range: "aaaa..bbbb (SMALL_HOOK_BASE)",
		Findings: []rules.Finding{
			{Rule: "small/append-only", Severity: rules.Error, Path: ".small/progress.small.yml", Line: 12, Message: "entry 3 was changed: 50% | <more>\nsecond line", Commit: commit, Hint: "progress is append-only; restore the entry"},
			{Rule: "secrets/github-pat", Severity: rules.Error, Path: "artifacts/a,b:c.md", Line: 4, Message: "possible secret", Commit: commit, Hint: "remove it and rotate it"},
			{Rule: "small/required", Severity: rules.Warning, Path: ".small/intent.small.yml", Line: 0, Message: "missing", Commit: commit},
		},
		Rules: []*rules.Rule{
			{ID: "small/append-only", Severity: rules.Error, Doc: "Progress is append-only\nLonger text."},
			{ID: "secrets", Severity: rules.Error, Doc: "No secrets\nFamily."},
			{ID: "small/required", Severity: rules.Error, Doc: "All files\nText."},
		},
	}
}

func TestReportCounts(t *testing.T) {
	r := sample()
	if r.Errors() != 2 || r.Warnings() != 1 {
		t.Errorf("got %d errors, %d warnings; want 2, 1", r.Errors(), r.Warnings())
	}
}

// findingsIn returns n findings of one severity spread over the paths in
// turn.
func findingsIn(n int, sev rules.Severity, paths ...string) []rules.Finding {
	var out []rules.Finding
	for i := range n {
		out = append(out, rules.Finding{Rule: "r", Severity: sev, Path: paths[i%len(paths)], Line: i + 1, Message: "m"})
	}
	return out
}

func TestReportSummary(t *testing.T) {
	cases := []struct {
		name string
		r    Result
		want string
	}{
		{"nothing found", Result{Mode: "staged", Files: 5}, "no problems in 5 files"},
		{"one file", Result{Mode: "tree", Files: 1}, "no problems in 1 file"},
		{"no file", Result{Mode: "staged"}, "no problems in 0 files"},
		{"one commit", Result{Mode: "range", Files: 0, Commits: 1}, "no problems in 0 files, 1 commit"},
		{"one error", Result{Mode: "staged", Files: 1, Findings: findingsIn(1, rules.Error, "a")}, "1 error in 1 file (1 file checked)"},
		{"warnings in two files", Result{Mode: "staged", Files: 2, Findings: findingsIn(6, rules.Warning, "a", "b")}, "6 warnings in 2 files (2 files checked)"},
		{"findings in some of the files checked", Result{Mode: "staged", Files: 9, Findings: append(findingsIn(2, rules.Error, "a"), findingsIn(1, rules.Warning, "b")...)}, "2 errors, 1 warning in 2 files (9 files checked)"},
		{"a finding about a file the change did not touch", Result{Mode: "staged", Files: 1, Findings: findingsIn(2, rules.Error, "a", "missing")}, "2 errors in 2 files (1 file checked)"},
		{"range", *sample(), "2 errors, 1 warning in 3 files (2 files checked, 3 commits)"},
		{"range of one commit", Result{Mode: "range", Files: 1, Commits: 1, Findings: findingsIn(1, rules.Warning, "a")}, "1 warning in 1 file (1 file checked, 1 commit)"},
		{"a refused deletion", Result{Mode: "range", Refs: []string{"refs/heads/main"}, Findings: findingsIn(1, rules.Error, "refs/heads/main")}, "1 error in 1 ref (0 files checked, 0 commits)"},
		{"a deletion and a file", Result{Mode: "range", Files: 1, Commits: 1, Refs: []string{"refs/heads/main", "refs/heads/x"}, Findings: findingsIn(2, rules.Error, "refs/heads/main", "a")}, "2 errors in 1 file and 1 ref (1 file checked, 1 commit)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Summary(&tc.r); got != tc.want {
				t.Errorf("Summary = %q, want %q", got, tc.want)
			}
		})
	}
}
