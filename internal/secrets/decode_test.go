package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/detect/codec"
)

// encodings write a secret as the texts gitleaks' decoder reads.
var encodings = map[string]func(string) string{
	"base64":  func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) },
	"hex":     func(s string) string { return hex.EncodeToString([]byte(s)) },
	"percent": func(s string) string { return strings.ReplaceAll(url.QueryEscape(s[:6]), "_", "%5F") + s[6:] },
	"unicode": func(s string) string {
		var b strings.Builder
		for _, r := range s {
			fmt.Fprintf(&b, `\\u%04x`, r)
		}
		return b.String()
	},
}

// gitleaksFinds returns what gitleaks, as its CLI is set up (its default
// rules, its decoder to depth 5), finds in content scanned whole, as
// rule@line.
func gitleaksFinds(t testing.TB, path, content string) []string {
	t.Helper()
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		t.Fatal(err)
	}
	d.MaxDecodeDepth = 5
	var out []string
	//lint:ignore SA1019 Detect takes this type throughout gitleaks v8
	for _, f := range d.Detect(detect.Fragment{Raw: content, FilePath: path, StartLine: 1}) {
		out = append(out, fmt.Sprintf("%s@%d", f.RuleID, f.StartLine))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestEncodedSecretsAreFoundWhereGitleaksFindsThem writes a token as each
// text gitleaks' decoder reads, in files of protocol state: the scanner
// reports it at its line, as gitleaks does, judged alone among other
// lines or with the whole file, on a long line, nested, across lines; and
// a line next to it that is judged alone does not report it.
func TestEncodedSecretsAreFoundWhereGitleaksFindsThem(t *testing.T) {
	filler := "name = \"research\"\nnotes = \"ordinary text\"\n"
	long := strings.Repeat("lorem ipsum ", 300)
	b64 := encodings["base64"]
	var body strings.Builder
	for i := range 60 {
		fmt.Fprintf(&body, "%064x\n", i*7919+104729)
	}
	bigKey := "-----BEGIN " + "RSA PRIVATE KEY-----\n" + body.String() + "-----END " + "RSA PRIVATE KEY-----\n"
	var unicodeLines strings.Builder
	for _, r := range fakeGitHub {
		fmt.Fprintf(&unicodeLines, "U+%04X\n", r)
	}
	cases := []struct {
		name, content, needle, rule, encoding string
	}{
		{"base64", filler + "token = \"" + b64(fakeGitHub) + "\"\n" + filler, b64(fakeGitHub), "github-pat", "base64"},
		{"hex", filler + "token = \"" + encodings["hex"](fakeGitHub) + "\"\n" + filler, encodings["hex"](fakeGitHub), "github-pat", "hex"},
		{"percent", filler + "url = \"https://x.example/?t=" + encodings["percent"](fakeGitHub) + "\"\n" + filler, "https://x.example", "github-pat", "percent"},
		{"unicode escapes", filler + "token = \"" + encodings["unicode"](fakeGitHub) + "\"\n" + filler, `\\u0067`, "github-pat", "unicode"},
		{"YAML !!binary", "a: 1\nb: !!binary " + b64(fakeAWS+" deployed") + "\nc: 2\n", "!!binary", "aws-access-token", "base64"},
		{"base64 of hex", filler + "token = \"" + b64(encodings["hex"](fakeGitHub)) + "\"\n" + filler, "token", "github-pat", "hex+base64"},
		{"a base64 private key", filler + "tls.key: " + b64(fakeKey) + "\n" + filler, "tls.key", "private-key", "base64"},
		{"base64 in a long line", filler + long + " token " + b64(fakeGitHub) + " " + long + "\n" + filler, "lorem", "github-pat", "base64"},
		{"a long base64 value", filler + "blob: " + b64(long+" "+fakeGitHub+" "+long+long+long) + "\n" + filler, "blob", "github-pat", "base64"},
		{"a large private key, base64 on a long line", filler + "tls.key: " + b64(bigKey) + "\n" + filler, "tls.key", "private-key", "base64"},
		{"U+ escapes one a line", filler + unicodeLines.String() + filler, "U+0067", "github-pat", "unicode"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			const path = ".awp/settings.toml"
			line := lineOf(tc.content, tc.needle)
			want := fmt.Sprintf("%s@%d", tc.rule, line)
			if g := gitleaksFinds(t, path, tc.content); !slices.Contains(g, want) {
				t.Fatalf("gitleaks finds %v, not %s: the case proves nothing", g, want)
			}
			for _, lines := range [][]int{nil, {line}} {
				found := scan(t, New(Options{}), path, tc.content, lines)
				i := slices.IndexFunc(found, func(f Finding) bool { return fmt.Sprintf("%s@%d", f.RuleID, f.Line) == want })
				if i < 0 {
					t.Fatalf("lines %v: got %s, want %s", lines, rulesAt(found), want)
				}
				if found[i].Encoding != tc.encoding || !strings.HasPrefix(found[i].Preview, "ghp_") && tc.rule == "github-pat" {
					t.Errorf("encoding %q (want %q), preview %q", found[i].Encoding, tc.encoding, found[i].Preview)
				}
			}
			if found := scan(t, New(Options{}), path, tc.content, []int{line - 2}); len(found) != 0 {
				t.Errorf("a line two above the secret, judged alone: %s", rulesAt(found))
			}
		})
	}
}

// TestEncodedSecretsAreRedactedAsWritten: once the scanner found a secret
// written base64-encoded, a message that echoes the encoded value, whole
// or cut short, shows none of it.
func TestEncodedSecretsAreRedactedAsWritten(t *testing.T) {
	encoded := encodings["base64"](fakeGitHub)
	s := New(Options{})
	if found := scan(t, s, ".small/workspace.small.yml", "small_version: \""+encoded+"\"\n", nil); len(found) == 0 {
		t.Fatal("nothing found")
	}
	for _, msg := range []string{
		`small_version is "` + encoded + `", not the string "1.0.0"`,
		`small_version is "` + encoded[:24] + `"…, not the string "1.0.0"`,
	} {
		if got := s.Redact(msg); strings.Contains(got, encoded[:12]) || strings.Contains(got, fakeGitHub[4:16]) {
			t.Errorf("redacted %q to %q", msg, got)
		}
	}
	// A message alone, with nothing scanned before, is decoded too.
	if got := New(Options{}).Redact("value " + encoded + " rejected"); strings.Contains(got, encoded[:12]) {
		t.Errorf("a message holding an encoded token: %q", got)
	}
}

// lineOf is the 1-based line of the first occurrence of needle.
func lineOf(text, needle string) int {
	return 1 + strings.Count(text[:strings.Index(text, needle)], "\n")
}

// FuzzEncodedLine holds encodedLine to gitleaks' decoder: a line on which
// the decoder decodes anything is a line encodedLine hands to it.
func FuzzEncodedLine(f *testing.F) {
	for _, seed := range []string{
		"token = \"" + encodings["base64"](fakeGitHub) + "\"",
		"id: " + encodings["hex"]("deploy key x"),
		encodings["hex"]("sixteen chars!!!") + "zz" + encodings["base64"]("more text here"),
		"agent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'",
		"replayId: ab1497cf5afa8dccde350b967d256c58aea53f18794ab590487f25e4f3a040f2",
		"url: https://x.example/a%20b", `v = "\u0067\u0068"`, "U+0067 U+0068", "aGVsbG8gd29ybGQhIQ",
		"c2VjcmV0LXZhbHVl=", "YWJjZGVmZ2hpamtsbW5vcA==x",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, "\n") || len(line) > 4096 {
			return
		}
		if _, segments := codec.NewDecoder().Decode(line, nil); len(segments) > 0 && !encodedLine([]byte(line)) {
			t.Fatalf("gitleaks decodes %q, encodedLine says it cannot", line)
		}
	})
}
