package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
)

func TestGitHub(t *testing.T) {
	cases := []struct {
		name string
		r    *Result
		want string
	}{
		{"range", sample(), `::error file=.small/progress.small.yml,line=12,title=small/append-only::entry 3 was changed: 50%25 | <more>%0Asecond line: progress is append-only; restore the entry [commit 0123456789ab]
::error file=artifacts/a%2Cb%3Ac.md,line=4,title=secrets/github-pat::possible secret: remove it and rotate it [commit 0123456789ab]
::warning file=.small/intent.small.yml,title=small/required::missing [commit 0123456789ab]
::notice::checked aaaa..bbbb (SMALL_HOOK_BASE): 2 errors, 1 warning in 3 files (2 files checked, 3 commits)
`},
		{"no problems", &Result{Mode: "staged", Files: 3}, "::notice::no problems in 3 files\n"},
		{"quiet", &Result{Mode: "staged", Files: 3, Quiet: true, Findings: []rules.Finding{{Rule: "r", Severity: rules.Warning, Path: "a", Message: "m"}}},
			"::warning file=a,title=r::m\n"},
		{"control characters in a message", &Result{Mode: "staged", Files: 1, Quiet: true, Findings: []rules.Finding{
			{Rule: "r\x1b[31m", Severity: rules.Error, Path: "a", Line: 1, Message: "x\x1b[2J\u202ey\r\nz"},
		}}, "::error file=a,line=1,title=r [31m::x [2J y %0Az\n"},
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
		{"range", sample(), "## small-hook\n\nChecked ` aaaa..bbbb (SMALL_HOOK_BASE) `.\n\n" +
			"| rule | severity | location | message |\n| --- | --- | --- | --- |\n" +
			"| ` small/append-only ` | error | ` .small/progress.small.yml:12 ` @ ` 0123456789ab ` | ` entry 3 was changed: 50% \\| <more> second line ` |\n" +
			"| ` secrets/github-pat ` | error | ` artifacts/a,b:c.md:4 ` @ ` 0123456789ab ` | ` possible secret ` |\n" +
			"| ` small/required ` | warning | ` .small/intent.small.yml ` @ ` 0123456789ab ` | ` missing ` |\n" +
			"\nHow to fix:\n\n- ` small/append-only `: ` progress is append-only; restore the entry `\n- ` secrets/github-pat `: ` remove it and rotate it `\n" +
			"\n2 errors, 1 warning in 3 files (2 files checked, 3 commits)\n"},
		{"pipe in path", &Result{Tool: "small-hook", Mode: "tree", Files: 1, Findings: []rules.Finding{
			{Rule: "r", Severity: rules.Warning, Path: "a|b.md", Line: 2, Message: "x"},
		}}, "## small-hook\n\n| rule | severity | location | message |\n| --- | --- | --- | --- |\n| ` r ` | warning | ` a\\|b.md:2 ` | ` x ` |\n\n1 warning in 1 file (1 file checked)\n"},
		{"no problems", &Result{Tool: "small-hook", Mode: "staged", Files: 3}, "## small-hook\n\nNo problems found.\n\nno problems in 3 files\n"},
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

// hostile holds texts a committer controls (artifact ids end up in
// messages, file names in paths, gitleaks rule ids in .gitleaks.toml) that
// would become links, images, HTML, emphasis, code or new table rows if
// they reached Markdown as they are.
var hostile = []string{
	"[Click](https://attacker.example/x) <img src=x>",
	"![pixel](https://attacker.example/p.png)",
	"<script>alert(1)</script><a href=\"https://attacker.example\">x</a>",
	"https://attacker.example/raw www.attacker.example mail@attacker.example @octocat #1",
	"*bold* _em_ **strong** ~~gone~~",
	"`code` ``two`` ```` four ````",
	"` starts with a backtick",
	"ends with a backtick `",
	"cell | breaker | \\| escaped",
	"line\nbreak\r\nand\rreturn",
	"&lt;img src=x&gt; &#60;b&#62;",
	"<!-- comment --> \u202eevil",
	"# heading\n---\n| new | row |",
}

// codeSpanContent checks that text is exactly one CommonMark code span and
// returns what it displays; in a table cell, GFM turns `\|` into `|`
// first.
func codeSpanContent(t *testing.T, cell string, inTable bool) string {
	t.Helper()
	n := len(cell) - len(strings.TrimLeft(cell, "`"))
	fence := strings.Repeat("`", n)
	if n == 0 || !strings.HasSuffix(cell, fence) || len(cell) < 2*n+2 {
		t.Fatalf("cell %q is not a code span", cell)
	}
	inner := cell[n : len(cell)-n]
	if strings.HasSuffix(inner, "`") {
		t.Fatalf("cell %q: the closing fence is longer than the opening one", cell)
	}
	// A run of exactly n backticks inside would close the span early.
	for _, run := range strings.FieldsFunc(inner, func(r rune) bool { return r != '`' }) {
		if len(run) == n {
			t.Fatalf("cell %q: the span closes early", cell)
		}
	}
	if inner[0] == ' ' && inner[len(inner)-1] == ' ' && strings.Trim(inner, " ") != "" {
		inner = inner[1 : len(inner)-1]
	}
	if inTable {
		return strings.ReplaceAll(inner, `\|`, "|")
	}
	return inner
}

// tableCells splits a GFM table row at its unescaped pipes (cmark-gfm
// takes every `\|` as an escaped pipe, inside code spans too).
func tableCells(row string) []string {
	row = strings.TrimSuffix(strings.TrimPrefix(row, "| "), " |")
	var cells []string
	start := 0
	for i := 0; i < len(row); i++ {
		if row[i] == '\\' && i+1 < len(row) && row[i+1] == '|' {
			i++
			continue
		}
		if row[i] == '|' {
			cells = append(cells, strings.TrimSpace(row[start:i]))
			start = i + 1
		}
	}
	return append(cells, strings.TrimSpace(row[start:]))
}

func TestGitHubSummaryEscapesHostileText(t *testing.T) {
	for _, text := range hostile {
		t.Run(text, func(t *testing.T) {
			r := &Result{Tool: "small-hook", Mode: "range", Files: 1, Commits: 1, Range: text + "..HEAD (--base)",
				Findings: []rules.Finding{{Rule: "secrets/" + text, Severity: rules.Error, Path: "artifacts/" + text + ".md", Line: 3, Message: "artifact id " + text, Commit: commit}}}
			var b bytes.Buffer
			if err := GitHubSummary(&b, r); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(b.String(), "\n")
			if len(lines) != 10 {
				t.Fatalf("%d lines, want 10: the text broke the layout\n%s", len(lines), b.String())
			}
			checked := strings.TrimSuffix(strings.TrimPrefix(lines[2], "Checked "), ".")
			if got := codeSpanContent(t, checked, false); got != Printable(r.Range) {
				t.Errorf("range shows %q, want %q", got, Printable(r.Range))
			}
			cells := tableCells(lines[6])
			if len(cells) != 4 {
				t.Fatalf("row %q has %d cells, want 4", lines[6], len(cells))
			}
			loc, at, ok := strings.Cut(cells[2], " @ ")
			if !ok || codeSpanContent(t, at, true) != words.ShortID(commit) {
				t.Errorf("location cell %q lacks the commit", cells[2])
			}
			f := r.Findings[0]
			for _, c := range []struct{ cell, want string }{
				{cells[0], f.Rule}, {loc, location(f)}, {cells[3], f.Message},
			} {
				if got := codeSpanContent(t, c.cell, true); got != Printable(c.want) {
					t.Errorf("cell %q shows %q, want %q", c.cell, got, Printable(c.want))
				}
			}
		})
	}
}

func TestGitHubFailure(t *testing.T) {
	var b bytes.Buffer
	if err := GitHubFailure(&b, "small-hook", "the .small-hook.yml of main:3: unknown key \"x\"\n::set-output name=a::b"); err != nil {
		t.Fatal(err)
	}
	want := "::error::small-hook could not check (exit code 2): the .small-hook.yml of main:3: unknown key \"x\"%0A::set-output name=a::b\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	b.Reset()
	if err := GitHubFailureSummary(&b, "small-hook", "[x](https://attacker.example) | `y`"); err != nil {
		t.Fatal(err)
	}
	want = "## small-hook\n\n**The check could not run** (exit code 2), so nothing was checked:\n\n`` [x](https://attacker.example) | `y` ``\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}
