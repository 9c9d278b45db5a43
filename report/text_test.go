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
checked aaaa..bbbb (SMALL_HOOK_BASE, 3 commits)
2 errors, 1 warning in 2 files, 3 commits
`},
		{"no problems", &Result{Mode: "staged", Files: 1}, true, "no problems in 1 file\n"},
		{"colour", &Result{Mode: "staged", Files: 1, Findings: []rules.Finding{
			{Rule: "r", Severity: rules.Error, Path: "a", Line: 1, Message: "m"},
			{Rule: "r", Severity: rules.Warning, Path: "b", Message: "m"},
		}}, true, "\x1b[1ma:1\x1b[0m: \x1b[31merror\x1b[0m r: m\n\x1b[1mb\x1b[0m: \x1b[33mwarning\x1b[0m r: m\n1 error, 1 warning in 1 file\n"},
		{"control characters", &Result{Mode: "tree", Files: 1, Findings: []rules.Finding{
			{Rule: "r", Severity: rules.Error, Path: "a\x1b[2Jb", Message: "x\r\ny\tz"},
		}}, false, "a [2Jb: error r: x  y z\n1 error, 0 warnings in 1 file\n"},
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
