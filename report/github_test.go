package report

import (
	"bytes"
	"testing"

	"github.com/small-hook/small-hook/rules"
)

func TestGitHub(t *testing.T) {
	cases := []struct {
		name string
		r    *Result
		want string
	}{
		{"range", sample(), `::error file=.small/progress.small.yml,line=12,title=small/append-only::entry 3 was changed: 50%25 | <more>%0Asecond line [commit 0123456789ab]
::error file=artifacts/a%2Cb%3Ac.md,line=4,title=secrets/github-pat::possible secret [commit 0123456789ab]
::warning file=.small/intent.small.yml,title=small/required::missing [commit 0123456789ab]
::notice::checked aaaa..bbbb (SMALL_HOOK_BASE, 3 commits): 2 errors, 1 warning in 2 files, 3 commits
`},
		{"no problems", &Result{Mode: "staged", Files: 3}, "::notice::no problems in 3 files\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := GitHub(&b, tc.r); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}

func TestGitHubEscaping(t *testing.T) {
	cases := []struct{ in, data, property string }{
		{"plain/path.md", "plain/path.md", "plain/path.md"},
		{"100%", "100%25", "100%25"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"k: v, w", "k: v, w", "k%3A v%2C w"},
		{"%0A", "%250A", "%250A"},
	}
	for _, tc := range cases {
		if got := escapeData(tc.in); got != tc.data {
			t.Errorf("escapeData(%q) = %q, want %q", tc.in, got, tc.data)
		}
		if got := escapeProperty(tc.in); got != tc.property {
			t.Errorf("escapeProperty(%q) = %q, want %q", tc.in, got, tc.property)
		}
	}
}

func TestGitHubSummary(t *testing.T) {
	cases := []struct {
		name string
		r    *Result
		want string
	}{
		{"range", sample(), "## small-hook\n\nChecked aaaa..bbbb (SMALL_HOOK_BASE, 3 commits).\n\n" +
			"| rule | severity | location | message |\n| --- | --- | --- | --- |\n" +
			"| small/append-only | error | .small/progress.small.yml:12 @ 0123456789ab | entry 3 was changed: 50% \\| <more> second line |\n" +
			"| secrets/github-pat | error | artifacts/a,b:c.md:4 @ 0123456789ab | possible secret |\n" +
			"| small/required | warning | .small/intent.small.yml @ 0123456789ab | missing |\n" +
			"\n2 errors, 1 warning in 2 files, 3 commits\n"},
		{"pipe in path", &Result{Mode: "tree", Files: 1, Findings: []rules.Finding{
			{Rule: "r", Severity: rules.Warning, Path: "a|b.md", Line: 2, Message: "x"},
		}}, "## small-hook\n\n| rule | severity | location | message |\n| --- | --- | --- | --- |\n| r | warning | a\\|b.md:2 | x |\n\n0 errors, 1 warning in 1 file\n"},
		{"no problems", &Result{Mode: "staged", Files: 3}, "## small-hook\n\nNo problems found.\n\nno problems in 3 files\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := GitHubSummary(&b, tc.r); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}
