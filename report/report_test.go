package report

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/small-hook/small-hook/rules"
)

func sample() *Result {
	return &Result{
		Tool: "small-hook", Version: "v1.2.3", Mode: "range", Files: 2, Commits: 3,
		Range: "aaaa..bbbb (--base, 3 commits)",
		Findings: []rules.Finding{
			{Rule: "small/append-only", Severity: rules.Error, Path: ".small/progress.small.yml", Line: 12, Message: "entry 3 was changed: 50% | more\nsecond line", Commit: "0123456789abcdef0123456789abcdef01234567"},
			{Rule: "secrets/github-pat", Severity: rules.Error, Path: "artifacts/a,b:c.md", Line: 4, Message: "possible secret"},
			{Rule: "small/required", Severity: rules.Warning, Path: ".small/intent.small.yml", Line: 0, Message: "missing"},
		},
		Rules: []*rules.Rule{
			{ID: "small/append-only", Severity: rules.Error, Doc: "Progress is append-only\nLonger text."},
			{ID: "secrets", Severity: rules.Error, Doc: "No secrets\nFamily."},
			{ID: "small/required", Severity: rules.Error, Doc: "All files\nText."},
		},
	}
}

func TestText(t *testing.T) {
	var b bytes.Buffer
	if err := Text(&b, sample(), false); err != nil {
		t.Fatal(err)
	}
	want := `.small/progress.small.yml:12: error small/append-only: entry 3 was changed: 50% | more
second line [commit 0123456789ab]
artifacts/a,b:c.md:4: error secrets/github-pat: possible secret
.small/intent.small.yml: warning small/required: missing
checked aaaa..bbbb (--base, 3 commits)
2 errors, 1 warning in 2 files, 3 commits
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	if err := Text(&b, &Result{Mode: "staged", Files: 1}, true); err != nil {
		t.Fatal(err)
	}
	if b.String() != "no problems in 1 file\n" {
		t.Errorf("empty: %q", b.String())
	}
	b.Reset()
	Text(&b, sample(), true)
	if !strings.Contains(b.String(), ansiRed+"error"+ansiReset) {
		t.Errorf("no colour on a terminal: %q", b.String())
	}
}

func TestJSONShape(t *testing.T) {
	var b bytes.Buffer
	if err := JSON(&b, &Result{Tool: "small-hook", Version: "v1", Mode: "staged", Files: 0}); err != nil {
		t.Fatal(err)
	}
	compact := new(bytes.Buffer)
	if err := json.Compact(compact, b.Bytes()); err != nil {
		t.Fatal(err)
	}
	want := `{"tool":"small-hook","version":"v1","mode":"staged","findings":[],"summary":{"errors":0,"warnings":0,"files":0,"commits":0}}`
	if compact.String() != want {
		t.Errorf("got %s\nwant %s", compact, want)
	}
	b.Reset()
	JSON(&b, sample())
	compact.Reset()
	json.Compact(compact, b.Bytes())
	if !strings.Contains(compact.String(), `{"rule":"small/append-only","severity":"error","path":".small/progress.small.yml","line":12,"message":"entry 3 was changed: 50% | more\nsecond line","commit":"0123456789abcdef0123456789abcdef01234567"}`) ||
		strings.Contains(compact.String(), `"commit":""`) {
		t.Errorf("finding shape: %s", compact)
	}
}

func TestGitHubCommands(t *testing.T) {
	var b bytes.Buffer
	if err := GitHub(&b, sample()); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	want := []string{
		"::error file=.small/progress.small.yml,line=12,title=small/append-only::entry 3 was changed: 50%25 | more%0Asecond line [commit 0123456789ab]",
		"::error file=artifacts/a%2Cb%3Ac.md,line=4,title=secrets/github-pat::possible secret",
		"::warning file=.small/intent.small.yml,title=small/required::missing",
		"::notice title=small-hook::checked aaaa..bbbb (--base, 3 commits): 2 errors, 1 warning in 2 files, 3 commits",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	b.Reset()
	GitHubSummary(&b, sample())
	if !strings.Contains(b.String(), `50% \| more second line`) || !strings.Contains(b.String(), "| error | `small/append-only` |") {
		t.Errorf("summary:\n%s", b.String())
	}
	b.Reset()
	GitHubSummary(&b, &Result{Mode: "staged", Files: 3})
	if !strings.Contains(b.String(), "No problems found") {
		t.Errorf("empty summary:\n%s", b.String())
	}
}

func TestSARIFValidatesAgainstTheOfficialSchema(t *testing.T) {
	data, err := os.ReadFile("../testdata/sarif/sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatal(err)
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range []*Result{sample(), {Tool: "small-hook", Version: "devel", Mode: "staged"}} {
		var b bytes.Buffer
		if err := SARIF(&b, res); err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("SARIF output is invalid: %v\n%s", err, b.String())
		}
	}
	var b bytes.Buffer
	SARIF(&b, sample())
	out := b.String()
	for _, want := range []string{`"ruleId": "secrets/github-pat"`, `"id": "secrets/github-pat"`, `"startLine": 12`, `"uriBaseId": "%SRCROOT%"`, `"level": "warning"`, `"commit": "0123456789abcdef0123456789abcdef01234567"`} {
		if !strings.Contains(out, want) {
			t.Errorf("SARIF lacks %s", want)
		}
	}
	var again bytes.Buffer
	SARIF(&again, sample())
	if again.String() != out {
		t.Error("SARIF output is not deterministic")
	}
}
