package secrets

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// describeConfig writes down everything of a compiled configuration that
// detection depends on.
func describeConfig(cfg config.Config) string {
	var b strings.Builder
	ids := slices.Sorted(func(yield func(string) bool) {
		for id := range cfg.Rules {
			if !yield(id) {
				return
			}
		}
	})
	for _, id := range ids {
		r := cfg.Rules[id]
		fmt.Fprintf(&b, "%s regex=%v path=%v entropy=%v group=%d keywords=%v required=%d\n", id, r.Regex, r.Path, r.Entropy, r.SecretGroup, r.Keywords, len(r.RequiredRules))
		for _, a := range r.Allowlists {
			fmt.Fprintf(&b, "  allow %s %v %v %d %v\n", a.RegexTarget, a.Regexes, a.Paths, len(a.StopWords), a.Commits)
		}
	}
	for _, a := range cfg.Allowlists {
		fmt.Fprintf(&b, "global %s %v %v %d %v\n", a.RegexTarget, a.Regexes, a.Paths, len(a.StopWords), a.Commits)
	}
	fmt.Fprintln(&b, slices.Sorted(func(yield func(string) bool) {
		for k := range cfg.Keywords {
			if !yield(k) {
				return
			}
		}
	}))
	return b.String()
}

// TestCompilingRulesAsNeededEqualsCompilingThemAtOnce: a detector grown
// one request at a time has exactly the rules, allowlists and keywords of
// one compiled from the same rules at once, and finds the same secrets.
func TestCompilingRulesAsNeededEqualsCompilingThemAtOnce(t *testing.T) {
	custom := `[extend]
useDefault = true
[[rules]]
id = "corp-token"
regex = '''corp_[a-z0-9]{24}'''
keywords = ["corp_"]
[[rules]]
id = "corp-pair"
regex = '''corp_id_[a-z0-9]{8}'''
keywords = ["corp_id_"]
[[rules.required]]
id = "corp-token"
[[allowlists]]
targetRules = ["corp-token"]
regexes = ['''corp_0{24}''']
`
	content := "a: corp_" + "abcdefghijklmnopqrstuvwx\nb: corp_id_" + "abcd1234\nc: " + fakeGitHub + "\nd: " + fakeStripe + "\ne: " + fakeSlack + "\nkey: " + fakePass + "\n"
	for _, cfgText := range []string{"", custom} {
		s := New(Options{})
		if cfgText != "" {
			s = New(Options{Config: []byte(cfgText), ConfigPath: ".gitleaks.toml"})
		}
		if err := s.load(); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewSource(11))
		c := &compiler{vc: s.rules, name: "test"}
		included := map[string]bool{}
		for round := 0; round < 7; round++ {
			for range 1 + rng.Intn(30) {
				included[s.rules.Rules[rng.Intn(len(s.rules.Rules))].ID] = true
			}
			if round == 6 {
				for _, r := range s.rules.Rules {
					included[r.ID] = true
				}
			}
			s.dependencies(included)
			grown, err := c.detector(included)
			if err != nil {
				t.Fatal(err)
			}
			atOnce, err := compile(s.rules, included, "test")
			if err != nil {
				t.Fatal(err)
			}
			if got, want := describeConfig(grown.Config), describeConfig(atOnce.Config); got != want {
				t.Fatalf("round %d: grown\n%s\nat once\n%s", round, got, want)
			}
			got, want := findingsOf(grown, content), findingsOf(atOnce, content)
			if got != want {
				t.Fatalf("round %d: grown finds %s, at once %s", round, got, want)
			}
			if round == 6 && !strings.Contains(got, "github-pat") {
				t.Fatalf("every rule finds only %s", got)
			}
		}
	}
}

func findingsOf(d *detect.Detector, content string) string {
	var out []string
	//lint:ignore SA1019 Detect takes this type throughout gitleaks v8
	for _, f := range d.Detect(detect.Fragment{Raw: content, FilePath: "x.yml", StartLine: 1}) {
		out = append(out, fmt.Sprintf("%s@%d:%d", f.RuleID, f.StartLine, f.StartColumn))
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}
