package secrets

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/small-hook/small-hook/internal/leakstest"
)

// allRulesShape returns the engine of a scanner with gitleaks' default
// rules and the shape of a detector holding every one of them.
func allRulesShape(t testing.TB) (*engine, *shape, map[string]*regexp.Regexp) {
	t.Helper()
	s := New(Options{})
	if err := s.load(); err != nil {
		t.Fatal(err)
	}
	all := map[string]bool{}
	for _, r := range s.rules.Rules {
		all[r.ID] = true
	}
	det, err := s.detectorFor(all)
	if err != nil {
		t.Fatal(err)
	}
	goRules := map[string]*regexp.Regexp{}
	for id, r := range det.Config.Rules {
		if r.Regex != nil {
			goRules[id] = r.Regex
		}
	}
	return s.engine, s.engine.shapeOf(det), goRules
}

// engineCorpus is text the engine must judge as Go's regexp does: the
// project's fake secrets in every form gitleaks' decoder reads, in every
// governed format, protocol state full of keywords and did:key
// identifiers, and the characters where RE2 and Go's regexp could part:
// case folding beyond ASCII (the Kelvin sign folds to k, the long s to s),
// NUL bytes, carriage returns, a value on the line after its key.
func engineCorpus(t testing.TB) []string {
	t.Helper()
	artifact, err := os.ReadFile(filepath.Join("..", "..", "testdata", "smp", "llm-context-research.v2.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := []string{string(artifact)}
	for _, secret := range []string{fakeAWS, fakeAWSSecret, fakeGitHub, fakeSlack, fakeStripe, fakePass, fakeKey} {
		for _, form := range leakstest.Forms(secret) {
			out = append(out,
				"# Notes\n\ndeployed with "+form+" today\n",
				"name = \"x\"\ntoken = \""+form+"\"\n",
				"{\n  \"name\": \"x\",\n  \"api_key\": \""+form+"\"\n}\n",
				"notes: "+form+"\nagent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'\n",
			)
		}
		out = append(out,
			"password:\n  "+secret+"\n",
			"\u212Aey = \""+secret+"\"\n",
			"\u017Fecret: "+secret+"\r\nauthors: ['did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK']\r\n",
			"token\x00: "+secret+"\n\x00\nkey: x\n",
			"é token = "+secret+" ü\n",
			"a: 1\n"+strings.Repeat("lorem ipsum key ", 120)+" "+secret+" "+strings.Repeat("dolor ", 300)+"\nb: 2\n",
			"password = \""+secret+"\" # gitleaks:allow\n",
		)
	}
	return out
}

// TestRE2FindsWhatGoFinds holds RE2 to Go's regexp on every default rule:
// each compiles in RE2, and over the corpus both find the same matches,
// so that the lines RE2 picks are those where gitleaks' own expression
// matches.
func TestRE2FindsWhatGoFinds(t *testing.T) {
	e, sh, goRules := allRulesShape(t)
	if !sh.narrowable || len(sh.rules) != len(goRules) {
		t.Fatalf("narrowable %v, %d rules compiled by RE2 of %d", sh.narrowable, len(sh.rules), len(goRules))
	}
	for _, text := range engineCorpus(t) {
		sameMatchesAsGo(t, e, goRules, text)
	}
}

// sameMatchesAsGo checks that RE2 and Go's regexp find the same matches
// of every rule in text.
func sameMatchesAsGo(t *testing.T, e *engine, goRules map[string]*regexp.Regexp, text string) {
	t.Helper()
	for id, re := range goRules {
		want := re.FindAllStringIndex(text, -1)
		e.mu.Lock()
		got := e.compile(re.String()).FindAllStringIndex(text, -1)
		e.mu.Unlock()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: RE2 finds %v, Go's regexp %v in %q", id, got, want, text)
		}
	}
}

// FuzzRE2FindsWhatGoFinds is TestRE2FindsWhatGoFinds on generated valid
// UTF-8 (the engine hands anything else to gitleaks whole).
func FuzzRE2FindsWhatGoFinds(f *testing.F) {
	for _, text := range engineCorpus(f) {
		f.Add(text)
	}
	e, _, goRules := allRulesShape(f)
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4<<10 || !utf8.ValidString(text) {
			return
		}
		sameMatchesAsGo(t, e, goRules, text)
	})
}

// enginePaths are paths whose answers to gitleaks' path tests differ: a
// rule that only reads PHP, Terraform, NuGet or YAML files, the generic
// rule's allowlisted paths.
var enginePaths = []string{"artifacts/notes.md", ".small/progress.small.yml", "config/app.php", "deploy/main.tf", "nuget.config", "vendor/x/go.sum"}

// TestNarrowedScanFindsWhatAWholeScanFinds scans the corpus with the
// engine narrowing every fragment and with gitleaks reading every fragment
// whole: the findings are the same, whole files and judged lines alike,
// on every path; and the engine did narrow (gitleaks read a quarter less,
// though most of the corpus is encoded text, which it reads whole).
func TestNarrowedScanFindsWhatAWholeScanFinds(t *testing.T) {
	narrowing, whole := New(Options{RE2From: -1}), New(Options{RE2From: 1 << 60})
	for i, text := range engineCorpus(t) {
		for _, path := range enginePaths {
			sameFindings(t, narrowing, whole, path, text, nil)
			sameFindings(t, narrowing, whole, path, text, []int{1 + i%3})
		}
	}
	if narrowing.goBytes.Load() >= whole.goBytes.Load()*3/4 {
		t.Errorf("gitleaks read %d bytes narrowed, %d whole", narrowing.goBytes.Load(), whole.goBytes.Load())
	}
}

// sameFindings checks that two scanners find the same in text at path.
func sameFindings(t *testing.T, a, b *Scanner, path, text string, lines []int) {
	t.Helper()
	got, want := scan(t, a, path, text, lines), scan(t, b, path, text, lines)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s, lines %v: narrowed %s, whole %s\n%q", path, lines, rulesAt(got), rulesAt(want), text)
	}
}

// TestNarrowingFallsBackWhereLinesAloneDiffer has rules whose matches
// the lines they cover do not show alone: a keyword on the line before
// (gitleaks runs the rule only where its keyword is), and a ^ that holds
// at the start of the narrowed text but not where the line stands in the
// file. The engine sees that RE2 finds other matches in the narrowed
// text and hands the fragment to gitleaks whole.
func TestNarrowingFallsBackWhereLinesAloneDiffer(t *testing.T) {
	token := "tok_" + "abcdefghijklmnop"
	cases := []struct{ config, content, want string }{
		{"[[rules]]\nid = \"deploy-token\"\nregex = '''tok_[a-z]{16}'''\nkeywords = [\"deploy\"]\n",
			"deploy:\n  " + token + "\n", "deploy-token@2"},
		{"[[rules]]\nid = \"anchored-token\"\nregex = '''^tok_[a-z]{16}|tok_[a-z]{16}x'''\nkeywords = [\"tok_\"]\n",
			"tok_ x\n" + token + "x\n", "anchored-token@2"},
	}
	for _, tc := range cases {
		opts := Options{Config: []byte(tc.config), ConfigPath: ".gitleaks.toml"}
		if got := rulesAt(scan(t, New(opts), "notes.md", tc.content, nil)); got != tc.want {
			t.Fatalf("whole: %s, want %s", got, tc.want)
		}
		narrowing, whole := opts, opts
		narrowing.RE2From, whole.RE2From = -1, 1<<60
		sameFindings(t, New(narrowing), New(whole), "notes.md", tc.content, nil)
	}
}

// FuzzNarrowedScan is TestNarrowedScanFindsWhatAWholeScanFinds on
// generated content.
func FuzzNarrowedScan(f *testing.F) {
	for i, text := range engineCorpus(f) {
		f.Add(text, uint8(i))
	}
	narrowing, whole := New(Options{RE2From: -1}), New(Options{RE2From: 1 << 60})
	f.Fuzz(func(t *testing.T, text string, where uint8) {
		if len(text) > 4<<10 {
			return
		}
		path := enginePaths[int(where)%len(enginePaths)]
		sameFindings(t, narrowing, whole, path, text, nil)
		sameFindings(t, narrowing, whole, path, text, []int{1 + int(where)%4})
	})
}

// TestGoRegexpReadsWhatRE2Found counts the bytes a scanner hands
// gitleaks' detector, whose Go regular expressions cost about a
// microsecond a byte, over a commit of n knowledge artifacts and one of
// 2n: past the first 64 KiB, gitleaks reads only the lines where RE2
// finds a rule's match (the did:key lines), and each such text once.
func TestGoRegexpReadsWhatRE2Found(t *testing.T) {
	artifact, err := os.ReadFile(filepath.Join("..", "..", "testdata", "smp", "llm-context-research.v2.md"))
	if err != nil {
		t.Fatal(err)
	}
	read := func(n int, unique bool) (matching, handed int64) {
		s := New(Options{})
		for i := range n {
			text := strings.ReplaceAll(string(artifact), "llm-context-research", fmt.Sprintf("a%05d", i))
			if unique {
				text = strings.ReplaceAll(text, "LndW", fmt.Sprintf("%04d", i))
			}
			for _, line := range strings.SplitAfter(text, "\n") {
				if strings.Contains(line, "did:key:") {
					matching += int64(len(line))
				}
			}
			if _, err := s.Scan(fmt.Sprintf("artifacts/a%05d.md", i), []byte(text), nil); err != nil {
				t.Fatal(err)
			}
		}
		return matching, s.goBytes.Load()
	}
	const n = 400
	_, once := read(n, false)
	_, twice := read(2*n, false)
	if twice > once+once/8 {
		t.Errorf("the same lines in every artifact: gitleaks read %d bytes of %d artifacts, %d of %d", once, n, twice, 2*n)
	}
	matchingOnce, once := read(n, true)
	matchingTwice, twice := read(2*n, true)
	if grew, more := twice-once, matchingTwice-matchingOnce; grew > more+more/10 {
		t.Errorf("a did:key of its own in every artifact: %d more artifacts, with %d more bytes of lines that match, had gitleaks read %d more bytes", n, more, grew)
	}
}
