package secrets

import (
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/zricethezav/gitleaks/v8/detect"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/leakstest"
	"github.com/small-hook/small-hook/internal/rulestest"
	leaks "github.com/small-hook/small-hook/internal/secrets"
)

// differentialPaths are governed files of every format the secret rule
// reads in its own ways: Markdown, TOML, JSON, YAML, a link.
var differentialPaths = []string{".awp/notes.md", ".awp/settings.toml", ".awp/state.json", ".small/ext/tool.yml", "artifacts/notes.md", ".awp/link"}

// gitleaksCLI returns a detector set up as the gitleaks CLI sets one up:
// its default rules, its decoder to depth 5, gitleaks:allow honoured.
var gitleaksCLI = sync.OnceValues(func() (*detect.Detector, error) {
	d, err := detect.NewDetectorDefaultConfig()
	if err != nil {
		return nil, err
	}
	d.MaxDecodeDepth = 5
	return d, nil
})

// defaultScanner is one Scanner with gitleaks' default rules for every
// differential check: it compiles the rules once.
var defaultScanner = sync.OnceValue(func() *leaks.Scanner { return leaks.New(leaks.Options{}) })

// gitleaksReports returns what the gitleaks CLI reports in raw, a file at
// path or the lines a change adds to it from line start on (one hunk of
// `gitleaks git --pre-commit --staged`), as path:line:secrets/rule.
func gitleaksReports(t testing.TB, path, raw string, start int) []string {
	d, err := gitleaksCLI()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	//lint:ignore SA1019 Detect takes this type throughout gitleaks v8
	for _, f := range d.Detect(detect.Fragment{Raw: raw, FilePath: path, StartLine: start}) {
		out = append(out, fmt.Sprintf("%s:%d:secrets/%s", f.File, f.StartLine, f.RuleID))
	}
	return out
}

// differentialWorkspace is the state the files are added to: a SMALL and
// an AWP workspace.
func differentialWorkspace(t *testing.T) rulestest.Snapshot {
	return rulestest.Snapshot{
		progress:              fixture(t, "reference-init.progress.small.yml"),
		plan:                  fixture(t, "reference-init.plan.small.yml"),
		intent:                fixture(t, "reference-init.intent.small.yml"),
		".awp/workspace.json": "{}\n",
	}
}

// neverWeaker checks that small-hook reports, for content at path, at
// least what gitleaks does: in a tree (as `gitleaks dir` scans a file), for
// a new file and for a change that adds line added (1-based; 0: none) to
// the file without it (as `gitleaks git --pre-commit --staged` scans
// them). A human's commit, so that gitleaks:allow counts for both.
func neverWeaker(t *testing.T, path, content string, added int) {
	t.Helper()
	ws := differentialWorkspace(t)
	link := path == ".awp/link"
	unit := func(u changes.Unit) changes.Unit {
		for i := range u.Changes {
			if link && u.Changes[i].New != nil && u.Changes[i].Path == path {
				u.Changes[i].New.Kind = changes.KindSymlink
			}
		}
		return u
	}
	human := attribution.Verdict{Actor: attribution.Human, Evidence: "no agent marker"}
	type mode struct {
		name     string
		unit     changes.Unit
		raw      string
		start    int
		skipLink bool
	}
	modes := []mode{
		{"tree", unit(rulestest.Tree(ws.With(path, content))), content, 1, true},
		{"a new file", unit(rulestest.Staged(ws, ws.With(path, content))), content, 1, false},
	}
	if lines := strings.SplitAfter(content, "\n"); added > 0 && added <= len(lines) && lines[added-1] != "" {
		old := strings.Join(append(append([]string{}, lines[:added-1]...), lines[added:]...), "")
		if old != "" && !strings.Contains("\n"+old, "\n"+strings.TrimSuffix(lines[added-1], "\n")+"\n") {
			// A line the old version holds elsewhere is not new: its
			// secret was reported when it was committed.
			modes = append(modes, mode{"an added line", unit(rulestest.Staged(ws.With(path, old), ws.With(path, content))), lines[added-1], added, false})
		}
	}
	for _, m := range modes {
		if link && m.skipLink {
			continue // gitleaks dir does not follow links
		}
		want := gitleaksReports(t, path, m.raw, m.start)
		if len(want) == 0 {
			continue
		}
		found, err := check(t, env{actor: &human, scanner: defaultScanner()}, m.unit)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]bool{}
		for _, f := range found {
			got[fmt.Sprintf("%s:%d:%s", f.Path, f.Line, strings.Replace(f.Rule, "secrets/gitleaks:", "secrets/", 1))] = true
		}
		for _, w := range want {
			if !got[w] {
				t.Errorf("%s: gitleaks reports %s, small-hook %q\n%q", m.name, w, summary(found), content)
			}
		}
	}
}

// differentialCorpus is the secrets of the project's tests in every
// encoding and in every format's ways of hiding them.
func differentialCorpus() []string {
	var out []string
	for _, secret := range []string{fakeAWS, fakeGitHub, fakeSlack, fakeStripe, fakeKey} {
		for _, form := range leakstest.Forms(secret) {
			out = append(out,
				"# Notes\n\ndeployed with "+form+" today\n",
				"name = \"x\"\ntoken = \""+form+"\"\n",
				"{\n  \"name\": \"x\",\n  \"token\": \""+form+"\"\n}\n",
				"notes: "+form+"\n",
			)
		}
		half := len(secret) / 2
		out = append(out,
			"# Notes\n\n"+secret[:half]+"<!-- -->"+secret[half:]+"\n",
			"# Notes\n\nx **"+secret[:half]+"**"+secret[half:]+"\n",
			"notes: \"\\x"+hex.EncodeToString([]byte(secret[:1]))+secret[1:]+"\"\n",
			"{\"token\": \"\\u00"+hex.EncodeToString([]byte(secret[:1]))+secret[1:]+"\"}\n",
			"a: 1\n"+strings.Repeat("lorem ipsum ", 200)+" "+secret+" "+strings.Repeat("dolor ", 300)+"\nb: 2\n",
			"password = \""+secret+"\" # gitleaks:allow\n",
		)
	}
	return out
}

// TestNeverWeakerThanGitleaks holds the secret rule to gitleaks on the
// corpus, in every governed format, as a tree, a new file and an added
// line: whatever the gitleaks CLI reports there, small-hook reports too.
func TestNeverWeakerThanGitleaks(t *testing.T) {
	corpus := differentialCorpus()
	for i, content := range corpus {
		path := differentialPaths[i%len(differentialPaths)]
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			for _, p := range []string{path, differentialPaths[(i+1)%len(differentialPaths)]} {
				neverWeaker(t, p, content, 1+strings.Count(content, "\n")/2)
			}
		})
	}
}

// FuzzNeverWeakerThanGitleaks is TestNeverWeakerThanGitleaks on generated
// content.
func FuzzNeverWeakerThanGitleaks(f *testing.F) {
	for i, content := range differentialCorpus() {
		f.Add(content, uint8(i), uint8(2))
	}
	f.Fuzz(func(t *testing.T, content string, where, added uint8) {
		if len(content) > 1<<14 {
			return
		}
		neverWeaker(t, differentialPaths[int(where)%len(differentialPaths)], content, int(added))
	})
}
