package attribution

import (
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
	"github.com/small-hook/small-hook/internal/testskip"
)

// trailerCases are commit messages and their trailers as "Key: value".
// Every case is also checked against git itself.
var trailerCases = []struct {
	name string
	msg  string
	want []string
}{
	{
		name: "last paragraph",
		msg:  "Add the thing\n\nLonger explanation.\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nAssisted-by: aider\n",
		want: []string{"Co-Authored-By: Claude <noreply@anthropic.com>", "Assisted-by: aider"},
	},
	{
		name: "subject and trailers only",
		msg:  "Subject\n\nCo-authored-by: A <a@example.com>\nAssisted-by: claude:opus\n",
		want: []string{"Co-authored-by: A <a@example.com>", "Assisted-by: claude:opus"},
	},
	{
		name: "a Key: value line in the middle of the body",
		msg:  "Add the thing\n\nNote: this is prose, not a trailer.\nIt goes on.\n\nThe end of the body.\n",
	},
	{
		name: "a trailer-like paragraph that is not the last",
		msg:  "Add the thing\n\nGenerated-by: nothing\n\nFinal words here.\n",
	},
	{name: "subject only", msg: "Assisted-by: claude\n"},
	{name: "subject only, no newline", msg: "Small-Actor: human"},
	{name: "subject and a second line without a blank line", msg: "Subject\nSmall-Actor: human\n"},
	{name: "empty", msg: ""},
	{name: "blank lines only", msg: "\n\n\n"},
	{
		name: "leading blank lines",
		msg:  "\n\nSubject\n\nSmall-Actor: human\n",
		want: []string{"Small-Actor: human"},
	},
	{
		name: "no final newline",
		msg:  "Subject\n\nSmall-Actor: human",
		want: []string{"Small-Actor: human"},
	},
	{
		name: "comment lines are stripped",
		msg:  "Subject\n\nBody.\n\nCo-authored-by: A <a@example.com>\n# Please enter the commit message for your changes.\n# Lines starting with '#' will be ignored.\n",
		want: []string{"Co-authored-by: A <a@example.com>"},
	},
	{
		name: "a comment line inside the trailer block",
		msg:  "Subject\n\nBody.\n\nCo-authored-by: A <a@example.com>\n# a comment\nSmall-Actor: agent\n",
		want: []string{"Co-authored-by: A <a@example.com>", "Small-Actor: agent"},
	},
	{
		name: "a comment line before the subject",
		msg:  "# a comment\nSubject\n\nSmall-Actor: agent\n",
		want: []string{"Small-Actor: agent"},
	},
	{
		name: "a comment between a trailer and its continuation",
		msg:  "Subject\n\nBody.\n\nKey: v\n# c\n  more\nOther: x\n",
	},
	{
		name: "the scissors line and what follows",
		msg:  "Subject\n\nBody.\n\nSmall-Actor: human\n" + scissorsLine + "# Do not modify or remove the line above.\ndiff --git a/x b/x\n\nAssisted-by: not-a-trailer\n",
		want: []string{"Small-Actor: human"},
	},
	{
		name: "continuation lines",
		msg:  "Subject\n\nBody.\n\nGenerated-by: a tool with a very long\n  description that wraps\n\tand wraps again\nSmall-Actor: agent\n",
		want: []string{"Generated-by: a tool with a very long description that wraps and wraps again", "Small-Actor: agent"},
	},
	{
		name: "a value that starts on the next line",
		msg:  "Subject\n\nBody.\n\nGenerated-by:\n  a tool\n",
		want: []string{"Generated-by: a tool"},
	},
	{
		name: "an indented line after prose is no continuation",
		msg:  "Subject\n\nBody.\n\nSigned-off-by: A <a@example.com>\nprose\n  indented\n",
		want: []string{"Signed-off-by: A <a@example.com>"},
	},
	{
		name: "an indented line after prose counts against the block",
		msg:  "Subject\n\nBody.\n\nSigned-off-by: A <a@example.com>\nprose\n  one\n  two\n  three\n",
	},
	{
		name: "Signed-off-by with 25% trailers",
		msg:  "Subject\n\nBody.\n\nsome prose\nmore prose\neven more prose\nSigned-off-by: A <a@example.com>\n",
		want: []string{"Signed-off-by: A <a@example.com>"},
	},
	{
		name: "Signed-off-by with fewer than 25% trailers",
		msg:  "Subject\n\nBody.\n\nsome prose\nmore prose\neven more prose\nand more\nSigned-off-by: A <a@example.com>\n",
	},
	{
		name: "signed-off-by in lower case is not git-generated",
		msg:  "Subject\n\nBody.\n\nsome prose\nsigned-off-by: A <a@example.com>\n",
	},
	{
		name: "Signed-off-by without a space is not git-generated",
		msg:  "Subject\n\nBody.\n\nsome prose\nSigned-off-by:A <a@example.com>\n",
	},
	{
		name: "two trailers and six prose lines with Signed-off-by",
		msg:  "Subject\n\nBody.\n\np1\np2\np3\np4\np5\np6\nSigned-off-by: A <a@example.com>\nCo-authored-by: B <b@example.com>\n",
		want: []string{"Signed-off-by: A <a@example.com>", "Co-authored-by: B <b@example.com>"},
	},
	{
		name: "prose in the last paragraph without a git trailer",
		msg:  "Subject\n\nBody.\n\nsome prose\nCo-authored-by: B <b@example.com>\nAssisted-by: x\nGenerated-by: y\n",
	},
	{
		name: "prose after the trailers",
		msg:  "Subject\n\nBody.\n\nthis is prose\nSigned-off-by: A <a@example.com>\nCo-authored-by: B <b@example.com>\nand prose\n",
		want: []string{"Signed-off-by: A <a@example.com>", "Co-authored-by: B <b@example.com>"},
	},
	{
		name: "cherry-picked",
		msg:  "Subject\n\nBody.\n\nprose a\nprose b\n(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\nCo-authored-by: B <b@example.com>\n",
		want: []string{"Co-authored-by: B <b@example.com>"},
	},
	{
		name: "the cherry-pick line counts as a trailer line",
		msg:  "Subject\n\nBody.\n\np1\np2\np3\np4\n(cherry picked from commit 0123456789abcdef0123456789abcdef01234567)\nCo-authored-by: B <b@example.com>\n",
		want: []string{"Co-authored-by: B <b@example.com>"},
	},
	{
		name: "trailing blank lines",
		msg:  "Subject\n\nBody.\n\nSmall-Actor: human\n\n\n\n",
		want: []string{"Small-Actor: human"},
	},
	{
		name: "trailing lines of blanks",
		msg:  "Subject\n\nBody.\n\nSmall-Actor: human\n   \n\t\n",
		want: []string{"Small-Actor: human"},
	},
	{
		name: "a --- line does not end a commit message",
		msg:  "Subject\n\nBody.\n---\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n",
		want: []string{"Co-Authored-By: Claude <noreply@anthropic.com>"},
	},
	{
		name: "a --- line inside the last paragraph is prose",
		msg:  "Subject\n\nBody.\n\nSmall-Actor: human\n---\nNot-Parsed: x\n",
	},
	{
		name: "an old-style Conflicts list after the trailers",
		msg:  "Merge branch 'x'\n\nCo-authored-by: B <b@example.com>\n\nConflicts:\n\ta.go\n\tb.go\n",
		want: []string{"Co-authored-by: B <b@example.com>"},
	},
	{
		name: "blanks before the colon",
		msg:  "Subject\n\nKey : spaced\nOther\t: tabbed\n",
		want: []string{"Key: spaced", "Other: tabbed"},
	},
	{
		name: "a key with a blank inside",
		msg:  "Subject\n\nNot a: trailer\n",
	},
	{
		name: "a non-ASCII key",
		msg:  "Subject\n\nÉtat: fini\n",
	},
	{
		name: "a URL looks like a trailer to git",
		msg:  "Subject\n\nhttps://example.com/x\n",
		want: []string{"https: //example.com/x"},
	},
	{
		name: "CRLF line endings",
		msg:  "Subject\r\n\r\nBody.\r\n\r\nSmall-Actor: agent\r\n",
		want: []string{"Small-Actor: agent"},
	},
}

func format(ts []Trailer) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Key+": "+t.Value)
	}
	return out
}

// gitLines runs git in dir with stdin, as gittest runs it, and returns
// the non-empty lines of its output.
func gitLines(t *testing.T, dir, stdin string, args ...string) []string {
	t.Helper()
	out, err := gittest.Run(dir, gittest.Env(), []byte(stdin), args...)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testskip.Skip(t, "git is not installed")
	}
}

func TestParseTrailers(t *testing.T) {
	for _, c := range trailerCases {
		t.Run(c.name, func(t *testing.T) {
			if got := format(ParseTrailers(c.msg)); !reflect.DeepEqual(got, c.want) {
				t.Errorf("ParseTrailers = %q, want %q", got, c.want)
			}
		})
	}
}

// TestTableAgreesWithInterpretTrailers checks the table against
// `git interpret-trailers --parse --no-divider`.
func TestTableAgreesWithInterpretTrailers(t *testing.T) {
	needGit(t)
	for _, c := range trailerCases {
		t.Run(c.name, func(t *testing.T) {
			if got := gitLines(t, "", c.msg, "interpret-trailers", "--parse", "--no-divider"); !reflect.DeepEqual(got, c.want) {
				t.Errorf("git interpret-trailers = %q, the table says %q", got, c.want)
			}
		})
	}
}

// TestTableAgreesWithGitLog stores every message verbatim in a commit of a
// real repository and asks git for the commit's trailers.
func TestTableAgreesWithGitLog(t *testing.T) {
	needGit(t)
	dir := t.TempDir()
	gitLines(t, dir, "", "init", "-q")
	tree := gitLines(t, dir, "", "write-tree")[0]
	for _, c := range trailerCases {
		t.Run(c.name, func(t *testing.T) {
			commit := gitLines(t, dir, c.msg, "commit-tree", tree)[0]
			got := gitLines(t, dir, "", "log", "-1", "--format=%(trailers:only,unfold)", commit)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("git log %%(trailers) = %q, the table says %q", got, c.want)
			}
		})
	}
}

// foldedMessage is a message of one trailer folded over n continuation
// lines of about 40 bytes each.
func foldedMessage(n int) string {
	var b strings.Builder
	b.WriteString("Subject\n\nBody.\n\nGenerated-by: a value that goes on\n")
	for range n {
		b.WriteString("  and on, one more continuation line\n")
	}
	return b.String()
}

// TestFoldedTrailerIsJoinedOnce bounds the memory that parsing a long
// folded trailer allocates by a multiple of the message's size: joining
// the continuation lines one at a time copies the value once per line
// (about 500 MB here, and 18 GB for the 1.2 MB message of 30,000 lines
// the issue measured at over 10 s).
func TestFoldedTrailerIsJoinedOnce(t *testing.T) {
	msg := foldedMessage(5000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	trailers := ParseTrailers(msg)
	runtime.ReadMemStats(&after)
	if len(trailers) != 1 || len(trailers[0].Value) < 5000*30 {
		t.Fatalf("ParseTrailers gave %d trailers", len(trailers))
	}
	if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(20*len(msg)); got > limit {
		t.Fatalf("parsing a %d-byte message allocated %d bytes, more than %d", len(msg), got, limit)
	}
}

func BenchmarkParseFoldedTrailer(b *testing.B) {
	msg := foldedMessage(30_000)
	b.SetBytes(int64(len(msg)))
	for b.Loop() {
		ParseTrailers(msg)
	}
}
