package report

import (
	"bytes"
	"testing"

	"github.com/small-hook/small-hook/rules"
)

func TestText(t *testing.T) {
	cases := []struct {
		name  string
		r     *Result
		color bool
		want  string
	}{
		{"range", sample(), false, `.small/progress.small.yml:12: error small/append-only: entry 3 was changed: 50% | <more> second line [commit 0123456789ab]
artifacts/a,b:c.md:4: error secrets/github-pat: possible secret [commit 0123456789ab]
.small/intent.small.yml: warning small/required: missing [commit 0123456789ab]

small/append-only: progress is append-only; restore the entry
secrets/github-pat: remove it and rotate it
checked aaaa..bbbb (SMALL_HOOK_BASE)
small-hook (pre-push/CI check): 2 errors, 1 warning in 3 files (2 files checked, 3 commits)
`},
		{"no problems", &Result{Tool: "small-hook", Stage: "pre-commit stage", Mode: "staged", Files: 1}, true,
			"small-hook (pre-commit stage): no problems in 1 file\n"},
		{"no stage", &Result{Tool: "small-hook", Mode: "tree", Files: 2}, false, "small-hook: no problems in 2 files\n"},
		{"colour", &Result{Tool: "small-hook", Stage: "commit-msg stage", Mode: "staged", Files: 1, Findings: []rules.Finding{
			{Rule: "r", Severity: rules.Error, Path: "a", Line: 1, Message: "m"},
			{Rule: "r", Severity: rules.Warning, Path: "b", Message: "m"},
		}}, true, "\x1b[1ma:1\x1b[0m: \x1b[31merror\x1b[0m r: m\n\x1b[1mb\x1b[0m: \x1b[33mwarning\x1b[0m r: m\n" +
			"small-hook (commit-msg stage): 1 error, 1 warning in 2 files (1 file checked)\n"},
		{"control characters", &Result{Tool: "small-hook", Mode: "tree", Files: 1, Findings: []rules.Finding{
			{Rule: "r\x1b]0;title\a", Severity: rules.Error, Path: "a\x1b[2Jb", Message: "x\r\ny\tz"},
		}}, false, "a [2Jb: error r ]0;title : x  y z\nsmall-hook: 1 error in 1 file (1 file checked)\n"},
		{"characters that reorder the display", &Result{Tool: "small-hook", Mode: "tree", Files: 1, Findings: []rules.Finding{
			{Rule: "r", Severity: rules.Error, Path: ".small/\u202egnp.yml", Message: "m\u2066x\u2069"},
		}}, false, ".small/ gnp.yml: error r: m x \nsmall-hook: 1 error in 1 file (1 file checked)\n"},
		{"quiet with findings", &Result{Tool: "small-hook", Stage: "pre-commit stage", Mode: "staged", Files: 3, Quiet: true,
			Findings: []rules.Finding{{Rule: "r", Severity: rules.Error, Path: "a", Line: 2, Message: "m"}}}, false, "a:2: error r: m\n"},
		{"each hint once, after the findings", &Result{Tool: "small-hook", Mode: "tree", Files: 2, Findings: []rules.Finding{
			{Rule: "r", Severity: rules.Error, Path: "a", Line: 1, Message: "m1", Hint: "fix it"},
			{Rule: "s", Severity: rules.Error, Path: "a", Line: 2, Message: "m2", Hint: "do this"},
			{Rule: "r", Severity: rules.Error, Path: "b", Line: 1, Message: "m3", Hint: "fix it"},
			{Rule: "r", Severity: rules.Error, Path: "b", Line: 2, Message: "m4", Hint: "or that"},
		}}, false, "a:1: error r: m1\na:2: error s: m2\nb:1: error r: m3\nb:2: error r: m4\n\nr: fix it\nr: or that\ns: do this\n" +
			"small-hook: 4 errors in 2 files (2 files checked)\n"},
		{"quiet leaves the hints out", &Result{Tool: "small-hook", Mode: "tree", Files: 1, Quiet: true, Findings: []rules.Finding{
			{Rule: "r", Severity: rules.Error, Path: "a", Line: 1, Message: "m", Hint: "fix it"},
		}}, false, "a:1: error r: m\n"},
		{"quiet without findings", &Result{Tool: "small-hook", Mode: "range", Files: 3, Commits: 2, Range: "a..b (--base)", Quiet: true}, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Text(&b, tc.r, tc.color); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tc.want)
			}
		})
	}
}
