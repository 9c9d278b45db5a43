package secrets

import (
	"fmt"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/rulestest"
)

// TestSecretsHiddenByJSONAndMarkdownEscapesAreFound writes secrets that a
// JSON reader or a Markdown renderer sees but whose raw text no rule
// matches: \u escapes in .awp/ and .small/ext/ JSON, character references
// and backslash escapes in an artifact's body. Each is reported once, at
// its line; an escape that hides nothing is not reported.
func TestSecretsHiddenByJSONAndMarkdownEscapesAreFound(t *testing.T) {
	ws := workspace(t)
	const awpJSON, extJSON = ".awp/workspace.json", ".small/ext/tool.json"
	gh := fakeGitHub[1:]
	cases := []struct {
		name, path, before, after, needle, want string
	}{
		{"\\u escape in .awp JSON", awpJSON, "{\n  \"name\": \"research\"\n}\n",
			"{\n  \"name\": \"research\",\n  \"token\": \"\\u0067" + gh + "\"\n}\n", `\u0067`, "secrets/github-pat"},
		{"\\u escapes in .small/ext JSON", extJSON, "",
			"{\"notes\": \"push with \\u0067\\u0068" + fakeGitHub[2:] + " today\"}\n", `\u0067`, "secrets/github-pat"},
		{"a surrogate pair and an escaped slash", extJSON, "",
			"{\"notes\": \"\\ud83d\\ude00 \\u0041" + fakeAWS[1:] + "\\/x\"}\n", `\u0041`, "secrets/aws-access-token"},
		{"a decimal character reference in an artifact body", artifact, ws[artifact],
			ws[artifact] + "\npushed with &#103;" + gh + "\n", "&#103;", "secrets/github-pat"},
		{"a hexadecimal character reference", artifact, ws[artifact],
			ws[artifact] + "\ndeployed with &#x41;" + fakeAWS[1:] + " today\n", "&#x41;", "secrets/aws-access-token"},
		{"a backslash escape", artifact, ws[artifact],
			ws[artifact] + "\nposted with " + strings.Replace(fakeStripe, "_", "\\_", 1) + "\n", `\_`, "secrets/stripe-access-token"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := with(ws, tc.path, tc.before)
			if tc.before == "" {
				delete(before, tc.path)
			}
			found, err := check(t, env{}, rulestest.Staged(before, with(ws, tc.path, tc.after)))
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("%s:%d:%s", tc.path, lineOf(t, tc.after, tc.needle), tc.want); summary(found) != want {
				t.Fatalf("got %q, want %q", summary(found), want)
			}
			tree, err := check(t, env{}, rulestest.Tree(with(ws, tc.path, tc.after)))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(summary(tree), tc.path+":"+fmt.Sprint(lineOf(t, tc.after, tc.needle))+":"+tc.want) {
				t.Errorf("--all: got %q", summary(tree))
			}
		})
	}
}

// TestEscapesAlreadyCommittedAreNotReportedAgain: an escaped secret of the
// old version is not reported when lines are added elsewhere, and escapes
// that hide nothing report nothing.
func TestEscapesAlreadyCommittedAreNotReportedAgain(t *testing.T) {
	ws := workspace(t)
	old := ws[artifact] + "\npushed with &#103;" + fakeGitHub[1:] + "\n"
	cases := []struct{ name, before, after string }{
		{"an old escaped secret", old, old + "\nMore notes.\n"},
		{"harmless escapes", ws[artifact], ws[artifact] + "\nR&amp;D costs \\*a lot\\* &mdash; see &#60;notes&#62;\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found, err := check(t, env{}, rulestest.Staged(with(ws, artifact, tc.before), with(ws, artifact, tc.after)))
			if err != nil {
				t.Fatal(err)
			}
			if len(found) != 0 {
				t.Errorf("got %q", summary(found))
			}
		})
	}
}

func TestUnescape(t *testing.T) {
	cases := []struct {
		f        func(string) string
		in, want string
	}{
		{unescapeJSON, `"a\u0067b" \u0067 "\"q\\" "\n\t\/"`, `"agb" \u0067 ""q\" "  /"`},
		{unescapeJSON, `"\ud83d\ude00 \ud83d \x"`, "\"\U0001F600 \uFFFD \\x\""},
	}
	for _, tc := range cases {
		if got := tc.f(tc.in); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzUnescapeKeepsLines: unescaping JSON never adds or removes a line,
// and the lines it says changed are the lines that differ.
func FuzzUnescapeKeepsLines(f *testing.F) {
	for _, s := range []string{"{\"a\": \"\\u0067\\n\"}\nx\n", "\"\\ud83d\\ude00\\", "&"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		out, changed := unescapeLines([]byte(data), nil, unescapeJSON, `\`)
		if out == nil {
			if len(changed) != 0 {
				t.Fatalf("no text but changed lines %v", changed)
			}
			return
		}
		in, got := strings.SplitAfter(data, "\n"), strings.SplitAfter(string(out), "\n")
		if len(in) != len(got) {
			t.Fatalf("%d lines became %d:\n%q\n%q", len(in), len(got), data, out)
		}
		var differ []int
		for i := range in {
			if in[i] != got[i] {
				differ = append(differ, i+1)
			}
		}
		if fmt.Sprint(differ) != fmt.Sprint(changed) {
			t.Fatalf("changed %v, but lines %v differ", changed, differ)
		}
	})
}
