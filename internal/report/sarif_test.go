package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/small-hook/small-hook/rules"
)

// offline is a schema loader that loads nothing: the SARIF schema must
// compile from the file and the metaschemas built into jsonschema.
type offline struct{}

func (offline) Load(url string) (any, error) {
	return nil, errors.New("test loads no schema from " + url)
}

func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("../../testdata/sarif/sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(offline{})
	if err := c.AddResource("sarif-2.1.0-rtm.5.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// twoSecrets has two findings of the same secret rule, whose driver rule
// must be added once.
func twoSecrets() *Result {
	r := sample()
	r.Mode, r.Commits, r.Range = "staged", 0, ""
	r.Findings = []rules.Finding{
		{Rule: "secrets/github-pat", Severity: rules.Error, Path: "a.md", Line: 1, Message: "m"},
		{Rule: "secrets/github-pat", Severity: rules.Error, Path: "b.md", Line: 2, Message: "m"},
		{Rule: "yaml/unknown", Severity: rules.Warning, Path: "c.md", Message: "m"},
	}
	return r
}

func TestSARIFValidatesAgainstTheOfficialSchema(t *testing.T) {
	schema := sarifSchema(t)
	for name, r := range map[string]*Result{
		"range":       sample(),
		"two secrets": twoSecrets(),
		"empty":       {Tool: "small-hook", Version: "devel", Mode: "staged"},
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := SARIF(&b, r); err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(&b)
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(doc); err != nil {
				t.Errorf("SARIF output is invalid: %v", err)
			}
		})
	}
}

func TestSARIFSchemaRejectsABrokenLog(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(`{"version":"2.1.0","runs":[{"results":[{"level":"fatal","message":{}}]}]}`)))
	if err != nil {
		t.Fatal(err)
	}
	if sarifSchema(t).Validate(doc) == nil {
		t.Error("the schema accepts a log without a tool and with level fatal")
	}
}

// decodedSARIF is the part of a SARIF log the tests look at.
type decodedSARIF struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name, Version, InformationURI string
				Rules                         []struct {
					ID               string
					ShortDescription struct{ Text string }
				}
			}
		}
		Results []struct {
			RuleID    string
			RuleIndex int
			Level     string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI, URIBaseID string }
					Region           *struct{ StartLine int }
				}
			}
			Properties map[string]string
		}
	}
}

func decodeSARIF(t *testing.T, r *Result) (decodedSARIF, string) {
	t.Helper()
	var b bytes.Buffer
	if err := SARIF(&b, r); err != nil {
		t.Fatal(err)
	}
	var log decodedSARIF
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(log.Runs))
	}
	return log, b.String()
}

func TestSARIFContent(t *testing.T) {
	log, out := decodeSARIF(t, sample())
	run := log.Runs[0]
	d := run.Tool.Driver
	if d.Name != "small-hook" || d.Version != "v1.2.3" || d.InformationURI != informationURI {
		t.Errorf("driver %s %s %s", d.Name, d.Version, d.InformationURI)
	}
	var ids []string
	for _, r := range d.Rules {
		ids = append(ids, r.ID)
	}
	if got := strings.Join(ids, " "); got != "small/append-only secrets/github-pat small/required" {
		t.Errorf("driver rules %s", got)
	}
	if r := d.Rules[0]; r.ShortDescription.Text != "Progress is append-only" {
		t.Errorf("rule metadata %+v", r)
	}
	if r := d.Rules[1]; r.ShortDescription.Text != "No secrets (github-pat)" {
		t.Errorf("secret family rule %+v", r)
	}
	if len(run.Results) != 3 {
		t.Fatalf("%d results, want 3", len(run.Results))
	}
	for i, res := range run.Results {
		f := sample().Findings[i]
		loc := res.Locations[0].PhysicalLocation
		if res.RuleID != f.Rule || d.Rules[res.RuleIndex].ID != f.Rule || res.Level != string(f.Severity) ||
			res.Message.Text != f.Text() || loc.ArtifactLocation.URI != f.Path || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" ||
			res.Properties["commit"] != commit {
			t.Errorf("result %d: %+v", i, res)
		}
		if (loc.Region == nil) != (f.Line == 0) || (loc.Region != nil && loc.Region.StartLine != f.Line) {
			t.Errorf("result %d region %+v, want line %d", i, loc.Region, f.Line)
		}
	}
	_, again := decodeSARIF(t, sample())
	if again != out {
		t.Error("SARIF output is not deterministic")
	}
}

func TestSARIFAddsAFamilyMemberOnce(t *testing.T) {
	log, _ := decodeSARIF(t, twoSecrets())
	run := log.Runs[0]
	var ids []string
	for _, r := range run.Tool.Driver.Rules {
		ids = append(ids, r.ID)
	}
	if got := strings.Join(ids, " "); got != "secrets/github-pat yaml/unknown" {
		t.Errorf("driver rules %s", got)
	}
	if run.Results[0].RuleIndex != 0 || run.Results[1].RuleIndex != 0 || run.Results[2].RuleIndex != 1 {
		t.Errorf("rule indexes %d %d %d", run.Results[0].RuleIndex, run.Results[1].RuleIndex, run.Results[2].RuleIndex)
	}
	if run.Results[0].Properties != nil {
		t.Errorf("staged result has properties %v", run.Results[0].Properties)
	}
}

// TestSARIFIsSmall: a SARIF log with one finding holds that finding and
// its rule's title, and nothing empty: no rule docs, no empty arrays or
// objects.
func TestSARIFIsSmall(t *testing.T) {
	all := []*rules.Rule{{ID: "small/append-only", Doc: "Progress is append-only\n" + strings.Repeat("A long explanation. ", 500)}, {ID: "small/ownership", Doc: "Ownership\nMore."}}
	r := &Result{Tool: "small-hook", Version: "v1", Mode: "staged", Rules: all, Findings: []rules.Finding{
		{Rule: "small/append-only", Severity: rules.Error, Path: ".small/progress.small.yml", Line: 3, Message: "entry 3 was changed", Hint: "restore it"},
	}}
	_, out := decodeSARIF(t, r)
	if len(out) > 1200 || strings.Contains(out, "A long explanation") || strings.Contains(out, "small/ownership") {
		t.Errorf("%d bytes:\n%s", len(out), out)
	}
	for _, empty := range []string{"[]", "{}", `""`} {
		if strings.Contains(out, empty) {
			t.Errorf("the log holds %s:\n%s", empty, out)
		}
	}
	if !strings.Contains(out, `"text": "entry 3 was changed: restore it"`) {
		t.Errorf("the result's message is not complete:\n%s", out)
	}
}

// TestSARIFURIsAreURIReferences: a path is written as a relative URI
// reference, encoded where a URI needs it.
func TestSARIFURIsAreURIReferences(t *testing.T) {
	for path, want := range map[string]string{
		".small/progress.small.yml": ".small/progress.small.yml",
		"artifacts/a b#c%d.md":      "artifacts/a%20b%23c%25d.md",
		"c:notes.md":                "./c:notes.md",
	} {
		if got := uriOf(path); got != want {
			t.Errorf("uriOf(%q) = %q, want %q", path, got, want)
		}
	}
}
