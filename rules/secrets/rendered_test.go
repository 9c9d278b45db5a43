package secrets

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/rulestest"
)

// TestTokensSplitByMarkupAreFound splits a token in an artifact's body
// with markup that no Markdown view shows: an HTML comment (on one line
// and across lines), an empty tag pair, emphasis, code spans, a link, an
// invisible character. Each is reported once, at the token's first line,
// staged and with --all; markup that joins no token reports nothing.
func TestTokensSplitByMarkupAreFound(t *testing.T) {
	ws := workspace(t)
	gh := fakeGitHub
	cases := []struct {
		name, added, needle string
	}{
		{"an HTML comment", "pushed with " + gh[:16] + "<!-- -->" + gh[16:] + " today", "<!--"},
		{"a comment across lines", "pushed with " + gh[:16] + "<!--\nnothing to see\n-->" + gh[16:] + " today", "<!--"},
		{"an empty span", "pushed with " + gh[:10] + "<span></span>" + gh[10:], "<span>"},
		{"a tag across lines", "pushed with " + gh[:10] + "<span\nclass=\"x\"></span>" + gh[10:], "<span"},
		{"bold", "pushed with " + gh[:12] + "**" + gh[12:20] + "**" + gh[20:], "**"},
		{"code spans", "pushed with `" + gh[:12] + "``" + gh[12:] + "`", "``"},
		{"strikethrough", "pushed with " + gh[:12] + "~~" + gh[12:20] + "~~" + gh[20:], "~~"},
		{"a link", "pushed with [" + gh[:12] + "](https://example.com/a_(b) \"t\")" + gh[12:], "](https"},
		{"a reference link", "pushed with [" + gh[:12] + "][ref]" + gh[12:] + "\n\n[ref]: https://example.com", "][ref]"},
		{"a zero-width space", "pushed with " + gh[:12] + "\u200b" + gh[12:], "\u200b"},
		{"a zero-width space as a reference", "pushed with " + gh[:12] + "&#8203;" + gh[12:], "&#8203;"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			after := ws[artifact] + "\n" + tc.added + "\n"
			if strings.Contains(after, gh) {
				t.Fatal("the token is written whole: the case proves nothing")
			}
			want := fmt.Sprintf("%s:%d:secrets/github-pat", artifact, lineOf(t, after, tc.needle))
			found, err := check(t, env{}, rulestest.Staged(ws, with(ws, artifact, after)))
			if err != nil {
				t.Fatal(err)
			}
			if summary(found) != want {
				t.Fatalf("got %q, want %q", summary(found), want)
			}
			tree, err := check(t, env{}, rulestest.Tree(with(ws, artifact, after)))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(summary(tree), want) {
				t.Errorf("--all: got %q", summary(tree))
			}
		})
	}
	// Only the line that closes a comment opened on a line committed
	// before is added: the token the two lines join is added with it.
	before := ws[artifact] + "\npushed with " + gh[:16] + "<!--\n"
	after := before + "-->" + gh[16:] + " today\n"
	found, err := check(t, env{}, rulestest.Staged(with(ws, artifact, before), with(ws, artifact, after)))
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%s:%d:secrets/github-pat", artifact, lineOf(t, after, "<!--")); summary(found) != want {
		t.Errorf("a comment closed by the added line: got %q, want %q", summary(found), want)
	}
	for _, harmless := range []string{
		"Use **bold** and _emphasis_, `code`, ~~gone~~, <b>tags</b> and [links](https://example.com/a_b).",
		"snake_case_names stay, <!-- a note --> and a list:\n\n* one\n* two",
	} {
		found, err := check(t, env{}, rulestest.Staged(ws, with(ws, artifact, ws[artifact]+"\n"+harmless+"\n")))
		if err != nil || len(found) != 0 {
			t.Errorf("%q: got %q (%v)", harmless, summary(found), err)
		}
	}
}

func TestRenderMarkdown(t *testing.T) {
	cases := []struct{ in, want string }{
		{`\_a\b &#103;&#x68;&amp;&nosuch; &#10; &`, "_a\\b gh&&nosuch;   &"},
		{"a<!-- x -->b <!-->c<!--->d <?php x ?>e <!DOCTYPE html>f <![CDATA[ x ]]>g", "ab cd e f g"},
		{"a<span class=\"x\">b</span>c <br/>d </p>e", "abc d e"},
		{"1 < 2 and 3 > 2, <https://x.example>, a <!-- unclosed", "1 < 2 and 3 > 2, <https://x.example>, a <!-- unclosed"},
		{"**b** *i* __u__ _e_ ~~s~~ `c` snake_case __init__x a_b_", "b i u e s c snake_case init__x a_b"},
		{"[t](u) ![alt](img.png \"title\") [r][ref] [x] (y) [a](b", "t alt r x (y) a(b"},
		{"a\u200bb\u00adc&#8203;d&ZeroWidthSpace;e", "abcde"},
		{"x<!--\ny\n-->z\nw\n", "xz\n\n\nw\n"},
	}
	for _, tc := range cases {
		if got := string(renderMarkdown([]byte(tc.in)).text); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
	r := renderMarkdown([]byte("a\nb<!--\n\n-->c<span\n>d\ne\n"))
	if !slices.Equal(r.changed, []int{2, 4, 5}) || r.reach[2] != 5 || len(r.reach) != 1 {
		t.Errorf("changed %v, reach %v", r.changed, r.reach)
	}
}

// FuzzRenderKeepsLines: rendering never adds or removes a line, the lines
// it says changed are the lines that differ, the lines a joined line
// reaches over are empty, and its work stays within a few times the
// input's bytes.
func FuzzRenderKeepsLines(f *testing.F) {
	for _, s := range []string{
		"a<!--\nb\n-->c\n", "x<span\n>y</span>\n", "&#10;\\_&amp;\r\n&#x0;\n", "[a](b(c)d) ![e][f] ]( ][",
		"**a** _b_ c_d `e` ~f~ \u200b", "<!x\n>\n<?\n?>\n<![CDATA[\n]]>", "<a <b <c\n\n>", "&",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		r := renderMarkdown([]byte(data))
		in, got := strings.SplitAfter(data, "\n"), strings.SplitAfter(string(r.text), "\n")
		if len(in) != len(got) {
			t.Fatalf("%d lines became %d:\n%q\n%q", len(in), len(got), data, r.text)
		}
		var differ []int
		for i := range in {
			if in[i] != got[i] {
				differ = append(differ, i+1)
			}
		}
		if fmt.Sprint(differ) != fmt.Sprint(r.changed) {
			t.Fatalf("changed %v, but lines %v differ", r.changed, differ)
		}
		for n, last := range r.reach {
			for k := n + 1; k <= last; k++ {
				if strings.TrimRight(got[k-1], "\n") != "" {
					t.Fatalf("line %d, which line %d reaches over, holds %q", k, n, got[k-1])
				}
			}
		}
		if r.work > 4*len(data)+16 {
			t.Fatalf("%d bytes of work for %d bytes", r.work, len(data))
		}
	})
}

// TestRenderingIsLinear renders inputs built to make a careless renderer
// search the rest of the text again and again (openings never closed,
// tags broken by "<", links with no destination, unmatched "]["),
// doubling them: the work doubles with them.
func TestRenderingIsLinear(t *testing.T) {
	for _, unit := range []string{"<!-- ", "<a b=", "<a ", "](", "][", "<!x ", "<?", "<![CDATA[", "[a](b(", "&#", "__x"} {
		small := renderMarkdown([]byte(strings.Repeat(unit, 20_000))).work
		large := renderMarkdown([]byte(strings.Repeat(unit, 40_000))).work
		if large > 2*small+64 || small > 4*20_000*len(unit) {
			t.Errorf("%q: work %d for 20,000 repeats, %d for 40,000", unit, small, large)
		}
	}
}
