package secrets

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
)

func scan(t *testing.T, s *Scanner, path, content string, lines []int) []Finding {
	t.Helper()
	found, err := s.Scan(path, []byte(content), lines)
	if err != nil {
		t.Fatal(err)
	}
	return found
}

// rulesAt lists findings as rule@line.
func rulesAt(found []Finding) string {
	var out []string
	for _, f := range found {
		out = append(out, fmt.Sprintf("%s@%d", f.RuleID, f.Line))
	}
	return strings.Join(out, ",")
}

func TestDefaultRulesCatchRealisticSecrets(t *testing.T) {
	s := New(Options{})
	key := strings.TrimSuffix(fakeKey, "\n")
	cases := []struct {
		name, path, content, rule, secret string
		line                              int
	}{
		{"aws key id in a progress note", ".small/progress.small.yml", "entries:\n    - notes: deployed with " + fakeAWS + " today\n", "aws-access-token", fakeAWS, 2},
		{"aws secret key in evidence", ".small/progress.small.yml", "entries:\n    - task_id: t\n      evidence: aws_secret_access_key = " + fakeAWSSecret + "\n", "generic-api-key", fakeAWSSecret, 3},
		{"github token in evidence", ".small/progress.small.yml", "a: 1\nb: 2\n      evidence: pushed with " + fakeGitHub + "\n", "github-pat", fakeGitHub, 3},
		{"slack token in a plan task", ".small/plan.small.yml", "tasks:\n  - id: t\n    title: post to " + fakeSlack + "\n", "slack-bot-token", fakeSlack, 3},
		{"stripe key in intent prose", ".small/intent.small.yml", "intent: charge cards with " + fakeStripe + "\n", "stripe-access-token", fakeStripe, 1},
		{"password assignment in an artifact body", "artifacts/notes.md", "# Notes\n\n  - db_password: " + fakePass + "\n", "generic-api-key", fakePass, 3},
		{"password on the line after its key", "artifacts/notes.md", "# Notes\npassword:\n  " + fakePass + "\n", "generic-api-key", fakePass, 2},
		{"private key block", ".awp/private-key.pem", "# Keys\n" + fakeKey, "private-key", key, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found := scan(t, s, tc.path, tc.content, nil)
			if len(found) != 1 || found[0].RuleID != tc.rule || found[0].Line != tc.line {
				t.Fatalf("got %s, want %s@%d", rulesAt(found), tc.rule, tc.line)
			}
			f := found[0]
			want := fmt.Sprintf("%s…(%d chars)", tc.secret[:4], len(tc.secret))
			if f.Preview != want || f.Fingerprint != fmt.Sprintf("%s:%s:%d", tc.path, tc.rule, tc.line) {
				t.Errorf("preview %q (want %q), fingerprint %q", f.Preview, want, f.Fingerprint)
			}
			if strings.Contains(fmt.Sprintf("%+v", f), tc.secret[4:]) {
				t.Errorf("finding holds the secret: %+v", f)
			}
		})
	}
}

func TestNoFalsePositivesOnWhatAgentStateIsFullOf(t *testing.T) {
	content := `entries:
    - command_sha256: 22980d19369cecba5c57ddcc5ad3b8d34e4b3eb41b03dfe3fae06ef1ea2dab52
      commit: 9f2c1e7b4a5d6c8e0f1a2b3c4d5e6f708192a3b4
      replayId: ab1497cf5afa8dccde350b967d256c58aea53f18794ab590487f25e4f3a040f2
      notes: run 3f2504e0-4f89-11d3-9a0c-0305e82c3301
authors:
  - 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'
modifiedBy: 'did:key:z6Mko64x75DDgiVmhP2DoegyEgiq5tVejzcqzYB8tJt4VR2q'
provenance:
  - agent: did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW
    message: "by did:key:z6Mko64x75DDgiVmhP2DoegyEgiq5tVejzcqzYB8tJt4VR2q"
    note: signed with the SSH key SHA256:u8b1X4XNxuQxz3fQo0GZ0aNc9mD0cOWlq2vY7Vn6ZJg
`
	if found := scan(t, New(Options{}), "artifacts/x.md", content, nil); len(found) != 0 {
		t.Errorf("false positives: %s", rulesAt(found))
	}
	// A signature finding names an SSH key by its fingerprint: the
	// redactor leaves it readable.
	msg := "the SSH key SHA256:u8b1X4XNxuQxz3fQo0GZ0aNc9mD0cOWlq2vY7Vn6ZJg is not in .github/allowed_signers"
	if got := New(Options{}).Redact(msg); got != msg {
		t.Errorf("a key fingerprint was redacted: %s", got)
	}
	files, err := filepath.Glob("../../testdata/secrets/*")
	if err != nil || len(files) < 5 {
		t.Fatalf("fixtures: %v %v", files, err)
	}
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if found := scan(t, New(Options{}), "artifacts/"+filepath.Base(name), string(data), nil); len(found) != 0 {
			t.Errorf("%s: false positives: %s", name, rulesAt(found))
		}
	}
}

func TestDIDAllowlistKeepsRealKeysOnTheSameLine(t *testing.T) {
	content := "agent: did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW api_key: " + fakePass + "\n"
	if got := rulesAt(scan(t, New(Options{}), "artifacts/x.md", content, nil)); got != "generic-api-key@1" {
		t.Errorf("got %q, want the api_key reported", got)
	}
	// A key assigned a DID-shaped value is not a DID.
	content = "api_key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW\n"
	if got := rulesAt(scan(t, New(Options{}), "artifacts/x.md", content, nil)); got != "generic-api-key@1" {
		t.Errorf("got %q, want it reported", got)
	}
}

func TestOnlyTheGivenLinesAreScanned(t *testing.T) {
	content := "old: " + fakeGitHub + "\nnew: fine\nnewer: " + fakeStripe + "\n"
	cases := []struct {
		lines []int
		want  string
	}{
		{nil, "github-pat@1,stripe-access-token@3"},
		{[]int{2, 3}, "stripe-access-token@3"},
		{[]int{1}, "github-pat@1"},
		{[]int{2}, ""},
		{[]int{}, ""},
	}
	for _, tc := range cases {
		if got := rulesAt(scan(t, New(Options{}), ".small/plan.small.yml", content, tc.lines)); got != tc.want {
			t.Errorf("lines %v: got %q, want %q", tc.lines, got, tc.want)
		}
	}
	part := Part{Path: ".small/plan.small.yml", Data: []byte("x: 1\nnewer: " + fakeStripe + "\n"), FirstLine: 41, Lines: []int{42}}
	if found, err := New(Options{}).ScanPart(part); err != nil || rulesAt(found) != "stripe-access-token@42" {
		t.Errorf("part from line 41: %s %v", rulesAt(found), err)
	}
}

func TestLargeContentIsChunkedWithRightLines(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "    - evidence: go test ./... passed, token count %d, key rotation checked\n", i)
	}
	b.WriteString("      notes: " + fakeAWS + "\n")
	for range 100 {
		b.WriteString("    - evidence: fine\n")
	}
	b.WriteString("      notes: " + fakeGitHub + "\n")
	if b.Len() < 4*chunkSize {
		t.Fatalf("content of %d bytes does not need chunks", b.Len())
	}
	if got := rulesAt(scan(t, New(Options{}), ".small/progress.small.yml", b.String(), nil)); got != "aws-access-token@5001,github-pat@5102" {
		t.Errorf("got %s", got)
	}
	text := newText([]byte(b.String()), 1)
	var every []int
	for i := range text.lines() {
		every = append(every, i)
	}
	frags := fragments(text, plan{selected: every})
	for i, fr := range frags {
		if len(fr.text) > chunkSize {
			t.Errorf("chunk at offset %d holds %d bytes", fr.off, len(fr.text))
		}
		if i > 0 && fr.off >= frags[i-1].off+len(frags[i-1].text) {
			t.Errorf("chunk at offset %d does not overlap the one before", fr.off)
		}
	}
}

func TestSuppression(t *testing.T) {
	content := "a: 1\nnotes: " + fakeGitHub + "\n"
	cases := []struct {
		name, ignore, path, commit, content string
		want                                int
	}{
		{"no ignore file", "", ".small/plan.small.yml", "", content, 1},
		{"fingerprint", "# reviewed\n.small/plan.small.yml:github-pat:2\n", ".small/plan.small.yml", "", content, 0},
		{"fingerprint of another file", ".small/plan.small.yml:github-pat:2\n", ".small/intent.small.yml", "", content, 1},
		{"fingerprint of another line", ".small/plan.small.yml:github-pat:1\n", ".small/plan.small.yml", "", content, 1},
		{"commit fingerprint", "abc123:.small/plan.small.yml:github-pat:2\n", ".small/plan.small.yml", "abc123", content, 0},
		{"commit fingerprint of another commit", "abc123:.small/plan.small.yml:github-pat:2\n", ".small/plan.small.yml", "def456", content, 1},
		// Who wrote a gitleaks:allow marker decides whether it counts:
		// the caller judges it.
		{"gitleaks:allow", "", ".small/plan.small.yml", "", "notes: " + fakeGitHub + " # gitleaks:allow\n", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{Ignore: []byte(tc.ignore)})
			found, err := s.ScanPart(Part{Path: tc.path, Data: []byte(tc.content), Commit: tc.commit})
			if err != nil || len(found) != tc.want {
				t.Errorf("got %s (%v), want %d findings", rulesAt(found), err, tc.want)
			}
		})
	}
}

func TestRepositoryConfig(t *testing.T) {
	custom := `[[rules]]
id = "corp-token"
description = "Corp internal token"
regex = '''corp_[a-z0-9]{24}'''
keywords = ["corp_"]
`
	extended := "[extend]\nuseDefault = true\n" + custom
	content := "x: corp_" + "abcdefghijklmnopqrstuvwx\ny: " + fakeGitHub + "\nz: " + fakeStripe + "\n"
	cases := []struct {
		name, config, want string
	}{
		{"default rules", "", "github-pat@2,stripe-access-token@3"},
		{"extending the defaults", extended, "corp-token@1,github-pat@2,stripe-access-token@3"},
		{"replacing the defaults", custom, "corp-token@1"},
		{"disabling a default rule", "[extend]\nuseDefault = true\ndisabledRules = [\"github-pat\"]\n", "stripe-access-token@3"},
		{"overriding a default rule", "[extend]\nuseDefault = true\n[[rules]]\nid = \"github-pat\"\ndescription = \"Our GitHub token\"\n[[rules.allowlists]]\nregexes = ['''a1B2''']\n", "stripe-access-token@3"},
		{"global allowlist", "[extend]\nuseDefault = true\n[[allowlists]]\npaths = ['''^\\.small/plan''']\n", ""},
		{"global allowlist of other paths", "[extend]\nuseDefault = true\n[[allowlists]]\npaths = ['''^\\.small/progress''', '''\\.md$''']\n", "github-pat@2,stripe-access-token@3"},
		{"global allowlist of paths or lines", "[extend]\nuseDefault = true\n[[allowlists]]\npaths = ['''^\\.small/progress''']\nregexTarget = \"line\"\nregexes = ['''z: sk_''']\n", "github-pat@2"},
		{"global allowlist of paths and lines", "[extend]\nuseDefault = true\n[[allowlists]]\ncondition = \"AND\"\npaths = ['''^\\.small/plan''']\nregexTarget = \"line\"\nregexes = ['''z: sk_''']\n", "github-pat@2"},
		{"global allowlist of other paths and lines", "[extend]\nuseDefault = true\n[[allowlists]]\ncondition = \"AND\"\npaths = ['''^\\.small/progress''']\nregexTarget = \"line\"\nregexes = ['''z: sk_''']\n", "github-pat@2,stripe-access-token@3"},
		{"global allowlist of paths, targeting a rule", "[extend]\nuseDefault = true\n[[allowlists]]\ntargetRules = [\"github-pat\"]\npaths = ['''^\\.small/plan''']\n", "stripe-access-token@3"},
		{"targeted allowlist", "[extend]\nuseDefault = true\n[[allowlists]]\ntargetRules = [\"stripe-access-token\"]\nregexTarget = \"line\"\nregexes = ['''z: sk_''']\n", "github-pat@2"},
		{"deprecated allowlist table", "[extend]\nuseDefault = true\n[allowlist]\nstopwords = [\"a1b2c3\"]\n", "stripe-access-token@3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{ConfigPath: ".gitleaks.toml"}
			if tc.config != "" {
				opts.Config = []byte(tc.config)
			}
			if got := rulesAt(scan(t, New(opts), ".small/plan.small.yml", content, nil)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestBrokenRepositoryConfigIsAnError(t *testing.T) {
	cases := []struct{ name, config string }{
		{"bad regex", "[[rules]]\nid = \"x\"\nregex = '''([a-z'''\n"},
		{"bad regex in an extending file", "[extend]\nuseDefault = true\n[[rules]]\nid = \"x\"\nregex = '''([a-z'''\n"},
		{"bad path regex", "[[rules]]\nid = \"x\"\npath = '''(['''\n"},
		{"bad TOML", "[[rules]\nid = 1\n"},
		{"extend by path", "[extend]\npath = \"/etc/gitleaks.toml\"\n"},
		{"bad allowlist path regex", "[extend]\nuseDefault = true\n[[allowlists]]\npaths = ['''([''']\n"},
		{"unknown target rule", "[[rules]]\nid = \"x\"\nregex = '''x'''\n[[allowlists]]\ntargetRules = [\"nope\"]\nregexes = ['''x''']\n"},
		{"rule without id", "[[rules]]\nregex = '''secret'''\n"},
		{"both allowlist forms", "[[rules]]\nid = \"x\"\nregex = '''x'''\n[allowlist]\nregexes = ['''a''']\n[[allowlists]]\nregexes = ['''b''']\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Options{Config: []byte(tc.config), ConfigPath: "repo/.gitleaks.toml"})
			_, err := s.Scan("a", []byte("secret x\n"), nil)
			if err == nil || !strings.Contains(err.Error(), "repo/.gitleaks.toml") {
				t.Fatalf("err %v, want an error naming the file", err)
			}
			if _, again := s.Scan("a", []byte("secret x\n"), nil); again == nil {
				t.Error("a second scan succeeded with a broken configuration")
			}
		})
	}
}

// TestExtendedConfigLoadsRepeatedly guards against gitleaks' package-level
// extend counter: from its third extended load in a process gitleaks keeps
// only the file's own rules. Several scanners, each rebuilding its detector
// as new keywords appear, must all keep the default rules.
func TestExtendedConfigLoadsRepeatedly(t *testing.T) {
	extended := []byte("[extend]\nuseDefault = true\n[[rules]]\nid = \"corp-token\"\nregex = '''corp_[a-z0-9]{24}'''\nkeywords = [\"corp_\"]\n")
	for i := range 4 {
		s := New(Options{Config: extended, ConfigPath: ".gitleaks.toml"})
		for _, tc := range []struct{ content, want string }{
			{"y: " + fakeGitHub + "\n", "github-pat@1"},
			{"z: " + fakeStripe + "\n", "stripe-access-token@1"},
			{"w: " + fakeSlack + "\n", "slack-bot-token@1"},
			{"v: corp_" + "abcdefghijklmnopqrstuvwx\n", "corp-token@1"},
		} {
			if got := rulesAt(scan(t, s, "a", tc.content, nil)); got != tc.want {
				t.Errorf("scanner %d: got %q, want %q", i, got, tc.want)
			}
		}
	}
}

func TestNothingToScanBuildsNoDetector(t *testing.T) {
	s := New(Options{Config: []byte("not toml at all ["), ConfigPath: ".gitleaks.toml"})
	scan(t, s, "a", "   \n", nil)
	scan(t, s, "a", "x\n", []int{})
	scan(t, s, "a", "", nil)
	if s.detector != nil || s.rules != nil {
		t.Error("the configuration was loaded with nothing to scan")
	}
}

// TestConfigDecodingMatchesGitleaks guards the shortcut decode takes:
// decoding with go-toml must give what gitleaks' viper path gives.
func TestConfigDecodingMatchesGitleaks(t *testing.T) {
	got, err := decode([]byte(config.DefaultConfig), "default")
	if err != nil {
		t.Fatal(err)
	}
	v := viper.New()
	v.SetConfigType("toml")
	if err := v.ReadConfig(strings.NewReader(config.DefaultConfig)); err != nil {
		t.Fatal(err)
	}
	var want config.ViperConfig
	if err := v.Unmarshal(&want); err != nil {
		t.Fatal(err)
	}
	if len(got.Rules) < 100 || !reflect.DeepEqual(*got, want) {
		t.Errorf("go-toml and viper decode gitleaks' default configuration differently (%d rules)", len(got.Rules))
	}
}

func TestPreview(t *testing.T) {
	cases := map[string]string{
		"":                 "",
		"short":            "…(5 chars)",
		"0123456789abcdef": "0123…(16 chars)",
		"ключ-ключ-ключ-ключ-ключ": "ключ…(24 chars)",
	}
	for secret, want := range cases {
		if got := preview(secret); got != want {
			t.Errorf("preview(%q) = %q, want %q", secret, got, want)
		}
	}
}

func BenchmarkDetectorBuild(b *testing.B) {
	entry := []byte("    - evidence: token rotated\n")
	for b.Loop() {
		s := New(Options{})
		if _, err := s.Scan("a", entry, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScanAppendedEntry(b *testing.B) {
	s := New(Options{})
	entry := []byte("    - evidence: go test ./... passed\n      replayId: 22980d19369cecba5c57ddcc5ad3b8d34e4b3eb41b03dfe3fae06ef1ea2dab52\n      task_id: task-1\n      timestamp: \"2027-01-01T00:00:00.000000000Z\"\n")
	for b.Loop() {
		if _, err := s.Scan(".small/progress.small.yml", entry, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDetectorBuildAllRules builds the detector for content that
// names every keyword, so every default rule is compiled: gitleaks' full
// start-up cost.
func BenchmarkDetectorBuildAllRules(b *testing.B) {
	vc, err := parseConfig([]byte(config.DefaultConfig), "default")
	if err != nil {
		b.Fatal(err)
	}
	var all strings.Builder
	for _, r := range vc.Rules {
		all.WriteString(strings.Join(r.Keywords, " ") + "\n")
	}
	content := []byte(all.String())
	for b.Loop() {
		s := New(Options{})
		if _, err := s.Scan("a", content, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestJoinedFragmentsKeepLinesAndColumns: lines with keywords far apart
// are handed to gitleaks in one fragment; every secret is still reported
// at its own line and column, and a judged line between them with no
// keyword costs nothing.
func TestJoinedFragmentsKeepLinesAndColumns(t *testing.T) {
	var b strings.Builder
	var want []string
	for i := 0; i < 300; i++ {
		switch i % 50 {
		case 7:
			fmt.Fprintf(&b, "      notes: %s\n", fakeGitHub)
			want = append(want, fmt.Sprintf("github-pat@%d:14", i+1))
		case 31:
			fmt.Fprintf(&b, "  - x: %s\n", fakeAWS)
			want = append(want, fmt.Sprintf("aws-access-token@%d:8", i+1))
		default:
			fmt.Fprintf(&b, "    - evidence: run %d passed\n", i)
		}
	}
	found := scan(t, New(Options{}), ".small/progress.small.yml", b.String(), nil)
	var got []string
	for _, f := range found {
		got = append(got, fmt.Sprintf("%s@%d:%d", f.RuleID, f.Line, f.Column))
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	text := newText([]byte(b.String()), 1)
	s := New(Options{})
	if err := s.load(); err != nil {
		t.Fatal(err)
	}
	p := s.plan(text, text.judge(nil))
	frags := joinFragments(fragments(text, p), func(fr fragment) string {
		return strings.Join(s.rulesIn(p, fr.off, fr.off+len(fr.text)), " ")
	})
	if len(frags) > 2 {
		t.Errorf("%d fragments for two kinds of keyword lines", len(frags))
	}
}

// BenchmarkScanLargeNewFile scans a new 256 kB progress file with keywords
// on every line, as a commit that adds a workspace does, on one processor
// and on every one: its fragments are scanned in parallel.
func BenchmarkScanLargeNewFile(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 256<<10; i++ {
		fmt.Fprintf(&sb, "    - command: curl -H \"Authorization: token $TOKEN\" https://api.example.com/keys/%d\n      evidence: rotated the api key and the secret of task %d\n      task_id: task-%d\n", i, i, i)
	}
	data := []byte(sb.String())
	procs := slices.Compact([]int{1, runtime.GOMAXPROCS(0)})
	for _, n := range procs {
		b.Run(fmt.Sprintf("procs=%d", n), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(n))
			s := New(Options{})
			for b.Loop() {
				if _, err := s.Scan(".small/progress.small.yml", data, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestValidateCompilesEveryRule: a broken rule is found whether or not
// content calls for it.
func TestValidateCompilesEveryRule(t *testing.T) {
	broken := "[[rules]]\nid = \"corp\"\nregex = '''(x'''\nkeywords = [\"corp\"]\n"
	if err := Validate(Options{Config: []byte(broken), ConfigPath: "the staged .gitleaks.toml"}); err == nil || !strings.Contains(err.Error(), "the staged .gitleaks.toml: invalid gitleaks configuration") {
		t.Errorf("a broken rule: %v", err)
	}
	if _, err := New(Options{Config: []byte(broken), ConfigPath: ".gitleaks.toml"}).Scan("a.yml", []byte("x: y\n"), nil); err != nil {
		t.Fatalf("the scan meets the broken rule, the test shows nothing: %v", err)
	}
	for _, ok := range []string{"", "[extend]\nuseDefault = true\n"} {
		if err := Validate(Options{Config: []byte(ok), ConfigPath: ".gitleaks.toml"}); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	if err := Validate(Options{Config: []byte("not toml ["), ConfigPath: ".gitleaks.toml"}); err == nil {
		t.Error("a file that is not TOML is valid")
	}
}

// TestProtocolStateIgnoresGitleaksBuiltInPaths: gitleaks' built-in path
// allowlist (documents, dependency folders, lock files) skips an ordinary
// file, but not a file of protocol state, whose name an agent chooses; a
// repository's own path allowlist still skips both.
func TestProtocolStateIgnoresGitleaksBuiltInPaths(t *testing.T) {
	content := "token: " + fakeGitHub + "\n"
	own := "[extend]\nuseDefault = true\n[[allowlists]]\npaths = ['''^\\.awp/fixtures/''']\n"
	cases := []struct {
		name, config, path string
		protocol           bool
		want               string
	}{
		{"a document, ordinary", "", ".awp/notes.pdf", false, ""},
		{"a document, protocol state", "", ".awp/notes.pdf", true, "github-pat@1"},
		{"a dependency folder, protocol state", "", ".awp/node_modules/x.md", true, "github-pat@1"},
		{"a lock file, protocol state", own, ".small/package-lock.json", true, "github-pat@1"},
		{"the repository's own path allowlist, protocol state", own, ".awp/fixtures/x.json", true, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{ConfigPath: ".gitleaks.toml"}
			if tc.config != "" {
				opts.Config = []byte(tc.config)
			}
			found, err := New(opts).ScanPart(Part{Path: tc.path, Data: []byte(content), Protocol: tc.protocol})
			if err != nil {
				t.Fatal(err)
			}
			if got := rulesAt(found); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
