package secrets

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/viper"
	"github.com/zricethezav/gitleaks/v8/config"
)

func scan(t *testing.T, s *Scanner, path, content string, lines []int) []Finding {
	t.Helper()
	found, err := s.Scan(path, []byte(content), lines, "")
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func TestDefaultRulesCatchRealisticSecrets(t *testing.T) {
	s := New(Options{})
	cases := []struct {
		name, content, rule, secret string
		line                        int
	}{
		{"aws key in a progress note", "entries:\n    - notes: deployed with " + fakeAWS + " today\n", "aws-access-token", fakeAWS, 2},
		{"github token in evidence", "a: 1\nb: 2\n      evidence: pushed with " + fakeGitHub + "\n", "github-pat", fakeGitHub, 3},
		{"slack token in a plan task", "tasks:\n  - id: t\n    title: post to " + fakeSlack + "\n", "slack-bot-token", fakeSlack, 3},
		{"stripe key in intent prose", "intent: charge cards with " + fakeStripe + "\n", "stripe-access-token", fakeStripe, 1},
		{"password assignment in an artifact body", "# Notes\n\n  - db_password: " + fakePass + "\n", "generic-api-key", fakePass, 3},
		{"private key block", "# Keys\n" + fakeKey, "private-key", "MIIEowIBAAKCAQEAu1SU1", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found := scan(t, s, "artifacts/notes.md", tc.content, nil)
			if len(found) != 1 || found[0].RuleID != tc.rule || found[0].Line != tc.line {
				t.Fatalf("got %+v, want one %s at line %d", found, tc.rule, tc.line)
			}
			if strings.Contains(found[0].Preview+found[0].Description+found[0].Fingerprint, tc.secret) {
				t.Errorf("finding holds the secret: %+v", found[0])
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
  - agent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'
`
	if found := scan(t, New(Options{}), "artifacts/x.md", content, nil); len(found) != 0 {
		t.Errorf("false positives: %+v", found)
	}
}

func TestOnlyTheGivenLinesAreScanned(t *testing.T) {
	content := "old: " + fakeGitHub + "\nnew: fine\nnewer: " + fakeStripe + "\n"
	found := scan(t, New(Options{}), ".small/plan.small.yml", content, []int{2, 3})
	if len(found) != 1 || found[0].Line != 3 {
		t.Fatalf("got %+v, want only line 3", found)
	}
	if found := scan(t, New(Options{}), ".small/plan.small.yml", content, []int{}); len(found) != 0 {
		t.Errorf("no lines given, findings %+v", found)
	}
}

func TestLargeContentIsChunkedWithRightLines(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		b.WriteString("    - evidence: go test ./... passed with no output at all today\n")
	}
	b.WriteString("      notes: " + fakeAWS + "\n")
	found := scan(t, New(Options{}), ".small/progress.small.yml", b.String(), nil)
	if len(found) != 1 || found[0].Line != 5001 {
		t.Fatalf("got %+v, want one finding at line 5001", found)
	}
}

func TestSuppression(t *testing.T) {
	content := "a: 1\nnotes: " + fakeGitHub + "\n"
	s := New(Options{Ignore: []byte("# reviewed\n.small/plan.small.yml:github-pat:2\n")})
	if found := scan(t, s, ".small/plan.small.yml", content, nil); len(found) != 0 {
		t.Errorf(".gitleaksignore fingerprint not honoured: %+v", found)
	}
	if found := scan(t, s, ".small/intent.small.yml", content, nil); len(found) != 1 {
		t.Errorf("fingerprint of another file suppressed this one: %+v", found)
	}
	withCommit := New(Options{Ignore: []byte("abc123:.small/plan.small.yml:github-pat:2\n")})
	if found, _ := withCommit.Scan(".small/plan.small.yml", []byte(content), nil, "abc123"); len(found) != 0 {
		t.Errorf("commit fingerprint not honoured: %+v", found)
	}
	inline := "notes: " + fakeGitHub + " # gitleaks:allow\n"
	if found := scan(t, New(Options{}), ".small/plan.small.yml", inline, nil); len(found) != 0 {
		t.Errorf("gitleaks:allow not honoured: %+v", found)
	}
}

func TestRepositoryConfig(t *testing.T) {
	custom := `title = "custom"
[extend]
useDefault = true

[[rules]]
id = "corp-token"
description = "Corp internal token"
regex = '''corp_[a-z0-9]{24}'''
keywords = ["corp_"]
`
	s := New(Options{Config: []byte(custom), ConfigPath: ".gitleaks.toml"})
	found := scan(t, s, ".small/plan.small.yml", "x: corp_"+"abcdefghijklmnopqrstuvwx\ny: "+fakeGitHub+"\n", nil)
	var ids []string
	for _, f := range found {
		ids = append(ids, f.RuleID)
	}
	if strings.Join(ids, ",") != "corp-token,github-pat" {
		t.Errorf("rules fired: %v, want the custom rule and the default ones", ids)
	}
	broken := New(Options{Config: []byte("[[rules]]\nid = \"x\"\nregex = '''([a-z'''\n"), ConfigPath: ".gitleaks.toml"})
	if _, err := broken.Scan("a", []byte("secret"), nil, ""); err == nil || !strings.Contains(err.Error(), ".gitleaks.toml") {
		t.Errorf("broken config: err %v", err)
	}
}

func TestNothingToScanBuildsNoDetector(t *testing.T) {
	s := New(Options{})
	scan(t, s, "a", "   \n", nil)
	scan(t, s, "a", "x\n", []int{})
	if s.detector != nil {
		t.Error("the detector was built with nothing to scan")
	}
}

func BenchmarkDetectorBuild(b *testing.B) {
	for b.Loop() {
		s := New(Options{})
		if _, err := s.Scan("a", []byte("x: 1\n"), nil, ""); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkScanAppendedEntry(b *testing.B) {
	s := New(Options{})
	entry := []byte("    - evidence: go test ./... passed\n      replayId: 22980d19369cecba5c57ddcc5ad3b8d34e4b3eb41b03dfe3fae06ef1ea2dab52\n      task_id: task-1\n      timestamp: \"2027-01-01T00:00:00.000000000Z\"\n")
	for b.Loop() {
		if _, err := s.Scan(".small/progress.small.yml", entry, nil, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// TestConfigDecodingMatchesGitleaks guards the shortcut parseConfig takes:
// decoding with go-toml must give what gitleaks' viper path gives.
func TestConfigDecodingMatchesGitleaks(t *testing.T) {
	got, err := parseConfig(Options{})
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

// BenchmarkDetectorBuildAllRules builds the detector for content that
// names every keyword, so every default rule is compiled: gitleaks' full
// start-up cost.
func BenchmarkDetectorBuildAllRules(b *testing.B) {
	vc, err := parseConfig(Options{})
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
		if _, err := s.Scan("a", content, nil, ""); err != nil {
			b.Fatal(err)
		}
	}
}
