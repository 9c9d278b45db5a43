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
		Tool: "small-hook", Version: "v1.2.3", Mode: "range", Files: 2, Commits: 3,
		Range: "aaaa..bbbb (SMALL_HOOK_BASE, 3 commits)",
		Findings: []rules.Finding{
			{Rule: "small/append-only", Severity: rules.Error, Path: ".small/progress.small.yml", Line: 12, Message: "entry 3 was changed: 50% | <more>\nsecond line", Commit: commit},
			{Rule: "secrets/github-pat", Severity: rules.Error, Path: "artifacts/a,b:c.md", Line: 4, Message: "possible secret", Commit: commit},
			{Rule: "small/required", Severity: rules.Warning, Path: ".small/intent.small.yml", Line: 0, Message: "missing", Commit: commit},
		},
		Rules: []*rules.Rule{
			{ID: "small/append-only", Severity: rules.Error, Doc: "Progress is append-only\nLonger text."},
			{ID: "secrets", Severity: rules.Error, Doc: "No secrets\nFamily."},
			{ID: "small/required", Severity: rules.Error, Doc: "All files\nText."},
		},
	}
}

func TestCounts(t *testing.T) {
	r := sample()
	if r.Errors() != 2 || r.Warnings() != 1 {
		t.Errorf("got %d errors, %d warnings; want 2, 1", r.Errors(), r.Warnings())
	}
}

func TestSummary(t *testing.T) {
	one := []rules.Finding{{Severity: rules.Error}}
	cases := []struct {
		r    Result
		want string
	}{
		{Result{Mode: "staged", Files: 5}, "no problems in 5 files"},
		{Result{Mode: "tree", Files: 1}, "no problems in 1 file"},
		{Result{Mode: "range", Files: 0, Commits: 1}, "no problems in 0 files, 1 commit"},
		{Result{Mode: "staged", Files: 1, Findings: one}, "1 error, 0 warnings in 1 file"},
		{*sample(), "2 errors, 1 warning in 2 files, 3 commits"},
	}
	for _, tc := range cases {
		if got := Summary(&tc.r); got != tc.want {
			t.Errorf("Summary = %q, want %q", got, tc.want)
		}
	}
}
