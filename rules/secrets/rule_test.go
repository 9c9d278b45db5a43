package secrets

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	leaks "github.com/small-hook/small-hook/internal/secrets"
	"github.com/small-hook/small-hook/rules"
)

// Fake secrets, assembled at run time so the repository never holds one.
var (
	fakeAWS       = "AKIA" + "Z7QF4M2XK6PLR3TB"
	fakeAWSSecret = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzq8Lm2vB7Tr0"
	fakeGitHub    = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	fakeSlack     = "xoxb-" + "1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	fakeStripe    = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc9Xk2"
	fakePass      = "Tr0ub4dor3xq9" + "Lm2vB7zQ"
	keyBody       = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u"
	fakeKey       = "-----BEGIN " + "RSA PRIVATE KEY-----\n" + keyBody + "\n-----END " + "RSA PRIVATE KEY-----\n"
	allSecrets    = []string{fakeAWS, fakeAWSSecret, fakeGitHub, fakeSlack, fakeStripe, fakePass, keyBody}
)

const (
	progress = ".small/progress.small.yml"
	plan     = ".small/plan.small.yml"
	intent   = ".small/intent.small.yml"
	artifact = "artifacts/llm-context-research.md"
)

// fixture reads a file written by the real tools.
func fixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../testdata/secrets", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// workspace is a real workspace and artifact as the reference tools wrote
// them.
func workspace(t *testing.T) rulestest.Snapshot {
	return rulestest.Snapshot{
		progress: fixture(t, "reference-init.progress.small.yml"),
		plan:     fixture(t, "reference-init.plan.small.yml"),
		intent:   fixture(t, "reference-init.intent.small.yml"),
		artifact: fixture(t, "llm-context-research.v4-merged.md"),
	}
}

// with returns a copy of s with the given files replaced.
func with(s rulestest.Snapshot, files ...string) rulestest.Snapshot {
	out := rulestest.Snapshot{}
	for k, v := range s {
		out[k] = v
	}
	for i := 0; i+1 < len(files); i += 2 {
		out[files[i]] = files[i+1]
	}
	return out
}

// lineOf is the 1-based line of the first occurrence of needle.
func lineOf(t *testing.T, text, needle string) int {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("%q not in text", needle)
	}
	return 1 + strings.Count(text[:i], "\n")
}

type env struct {
	gitleaksToml, gitleaksIgnore string
	scope                        string
	noScanner                    bool
	// actor made the change; nil: unknown.
	actor *attribution.Verdict
	// scanner, when set, is used instead of a new one (with gitleaks'
	// default rules): compiling them takes most of a small check.
	scanner *leaks.Scanner
}

func check(t *testing.T, e env, units ...changes.Unit) ([]rules.Finding, error) {
	t.Helper()
	cfg := config.Default()
	if e.scope != "" {
		cfg.Secrets.Scope = e.scope
	}
	opts := rules.Options{Rules: Rules(), Config: cfg}
	if e.actor != nil {
		opts.Actor = func(*changes.Unit) (attribution.Verdict, error) { return *e.actor, nil }
	}
	switch {
	case e.scanner != nil:
		opts.Secrets = e.scanner
	case !e.noScanner:
		so := leaks.Options{ConfigPath: ".gitleaks.toml", Ignore: []byte(e.gitleaksIgnore)}
		if e.gitleaksToml != "" {
			so.Config = []byte(e.gitleaksToml)
		}
		opts.Secrets = leaks.New(so)
	}
	found, err := rules.Check(units, opts)
	for _, f := range found {
		for _, s := range allSecrets {
			if strings.Contains(fmt.Sprintf("%+v", f), s) {
				t.Errorf("a finding holds a secret: %s", f.Text())
			}
		}
	}
	return found, err
}

// summary lists findings as path:line:rule.
func summary(found []rules.Finding) string {
	var out []string
	for _, f := range found {
		out = append(out, fmt.Sprintf("%s:%d:%s", f.Path, f.Line, f.Rule))
	}
	return strings.Join(out, " ")
}

func TestRepositoryGitleaksConfig(t *testing.T) {
	ws := workspace(t)
	after := with(ws, plan, ws[plan]+"    - id: task-4\n      title: rotate corp_"+"abcdefghijklmnopqrstuvwx and "+fakeStripe+"\n")
	custom := "[[rules]]\nid = \"corp-token\"\ndescription = \"Corp internal token\"\nregex = '''corp_[a-z0-9]{24}'''\nkeywords = [\"corp_\"]\n"
	line := lineOf(t, after[plan], "corp_")
	cases := []struct {
		name, toml, want string
	}{
		{"extends the defaults", "[extend]\nuseDefault = true\n" + custom, fmt.Sprintf("%[1]s:%[2]d:secrets/corp-token %[1]s:%[2]d:secrets/stripe-access-token", plan, line)},
		{"replaces the defaults", custom, fmt.Sprintf("%s:%d:secrets/corp-token", plan, line)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found, err := check(t, env{gitleaksToml: tc.toml}, rulestest.Staged(ws, after))
			if err != nil || summary(found) != tc.want {
				t.Fatalf("got %q (%v), want %q", summary(found), err, tc.want)
			}
			if !strings.Contains(found[0].Text(), "(Corp internal token)") {
				t.Errorf("message %q", found[0].Text())
			}
		})
	}
	_, err := check(t, env{gitleaksToml: "[[rules]]\nid = \"x\"\nregex = '''([a-z'''\n"}, rulestest.Staged(ws, after))
	if err == nil || !strings.Contains(err.Error(), ".gitleaks.toml") {
		t.Errorf("broken .gitleaks.toml: err %v, want an error naming it", err)
	}
}

func TestOnlyAddedLinesAreScannedOutsideTreeMode(t *testing.T) {
	ws := workspace(t)
	old := with(ws, plan, ws[plan]+"    - id: task-4\n      title: push with "+fakeGitHub+"\n")
	oldLine := lineOf(t, old[plan], fakeGitHub)
	moved := with(ws, plan, strings.Replace(ws[plan], "    - id: task-1\n", "    - id: task-0\n      title: push with "+fakeGitHub+"\n    - id: task-1\n", 1))
	duplicated := with(old, plan, old[plan]+"    - id: task-5\n      title: push with "+fakeGitHub+"\n")
	added := with(old, plan, old[plan]+"    - id: task-5\n      title: post to "+fakeSlack+"\n")
	cases := []struct {
		name string
		unit changes.Unit
		want string
	}{
		{"secret already in the old version", rulestest.Staged(old, with(old, progress, ws[progress]+"    - task_id: x\n")), ""},
		{"old secret, new line elsewhere in the file", rulestest.Staged(old, added), fmt.Sprintf("%s:%d:secrets/slack-bot-token", plan, lineOf(t, added[plan], fakeSlack))},
		{"line holding the old secret duplicated", rulestest.Staged(old, duplicated), ""},
		{"a line removed and added elsewhere", rulestest.Staged(old, with(old, plan, moved[plan])), ""},
		{"tree mode scans every line", rulestest.Tree(old), fmt.Sprintf("%s:%d:secrets/github-pat", plan, oldLine)},
		{"new file", rulestest.Staged(ws, with(with(ws, ".awp/workspace.json", "{}"), ".awp/private-key.pem", fakeKey)), ".awp/private-key.pem:1:secrets/private-key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			found, err := check(t, env{}, tc.unit)
			if err != nil || summary(found) != tc.want {
				t.Fatalf("got %q (%v), want %q", summary(found), err, tc.want)
			}
		})
	}
}

func TestMergeReportsOnlyLinesInNoParent(t *testing.T) {
	base := "tasks:\n    - id: a\n"
	ours := base + "    - id: b\n      title: " + fakeGitHub + "\n"
	theirs := base + "    - id: c\n"
	merged := ours + "    - id: c\n      title: " + fakeStripe + "\n"
	ch := changes.Change{Path: plan, Old: rulestest.Blob(ours), New: rulestest.Blob(merged),
		Merge: &changes.Merge{Base: rulestest.Blob(base), Parents: []*changes.Blob{rulestest.Blob(ours), rulestest.Blob(theirs)}}}
	u := changes.Unit{Mode: changes.ModeRange, Commit: &changes.Commit{Hash: "ab12"}, Changes: []changes.Change{ch}, Files: rulestest.Snapshot{plan: merged}}
	found, err := check(t, env{}, u)
	if want := fmt.Sprintf("%s:6:secrets/stripe-access-token", plan); err != nil || summary(found) != want {
		t.Fatalf("got %q (%v), want %q", summary(found), err, want)
	}
	if found[0].Commit != "ab12" {
		t.Errorf("commit %q", found[0].Commit)
	}
}

func TestHasLine(t *testing.T) {
	cases := []struct {
		text, line string
		want       bool
	}{
		{"a\nb\nc\n", "b", true},
		{"a\nb\nc", "c", true},
		{"a\nbb\nc\n", "b", false},
		{"a\nxb\nb\n", "b", true},
		{"a\r\nb\r\n", "b", true},
		{"b", "b", true},
		{"", "b", false},
	}
	for _, tc := range cases {
		if got := hasLine([]byte(tc.text), []byte(tc.line)); got != tc.want {
			t.Errorf("hasLine(%q, %q) = %v", tc.text, tc.line, got)
		}
	}
	if got := string(lineAt([]byte("a\r\nb\nc"), 1)) + string(lineAt([]byte("a\r\nb\nc"), 3)); got != "ac" {
		t.Errorf("lineAt: %q", got)
	}
}

func BenchmarkStagedAppendToLargeProgress(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("small_version: \"1.0.0\"\nowner: agent\nentries:\n")
	for i := range 20000 {
		fmt.Fprintf(&sb, "    - evidence: go test ./... passed\n      replayId: ab1497cf5afa8dccde350b967d256c58aea53f18794ab590487f25e4f3a040f2\n      task_id: task-%d\n", i)
	}
	before := sb.String()
	after := before + "    - evidence: token rotated\n      task_id: task-x\n"
	u := rulestest.Staged(rulestest.Snapshot{progress: before}, rulestest.Snapshot{progress: after})
	opts := rules.Options{Rules: Rules(), Secrets: leaks.New(leaks.Options{})}
	for b.Loop() {
		if _, err := rules.Check([]changes.Unit{u}, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// TestEveryChangeOfAUnitIsScanned adds secrets to many files of one
// commit, which are scanned at once: each is reported once, at its line,
// whether its raw text or only its decoded value shows it, and the same
// files with nothing added report nothing.
func TestEveryChangeOfAUnitIsScanned(t *testing.T) {
	ws := workspace(t)
	before, after := rulestest.Snapshot{}, rulestest.Snapshot{}
	var want []string
	for i, s := range []string{fakeAWS, fakeGitHub, fakeSlack, fakeStripe, fakeAWS, fakeGitHub, fakeSlack, fakeStripe} {
		path := fmt.Sprintf("examples/w%d/%s", i, progress)
		before[path] = ws[progress]
		rule := map[string]string{fakeAWS: "aws-access-token", fakeGitHub: "github-pat", fakeSlack: "slack-bot-token", fakeStripe: "stripe-access-token"}[s]
		note := "used " + s
		if i%2 == 1 {
			// Only YAML's decoding shows this one whole.
			note = `"used \x` + fmt.Sprintf("%02x", s[0]) + s[1:] + `"`
		}
		after[path] = ws[progress] + "    - evidence: deployed\n      notes: " + note + "\n      status: completed\n      task_id: task-3\n      timestamp: \"2026-11-22T10:17:12.322718254Z\"\n"
		want = append(want, fmt.Sprintf("%s:%d:secrets/%s", path, lineOf(t, after[path], "notes: "+note), rule))
	}
	for range 3 {
		found, err := check(t, env{}, rulestest.Staged(before, after))
		if err != nil {
			t.Fatal(err)
		}
		if got := summary(found); got != strings.Join(want, " ") {
			t.Fatalf("got  %s\nwant %s", got, strings.Join(want, " "))
		}
	}
	if found, err := check(t, env{}, rulestest.Staged(before, before)); err != nil || len(found) != 0 {
		t.Errorf("nothing added: %s %v", summary(found), err)
	}
}

// BenchmarkNewWorkspacesOfLargeFiles checks a commit that adds three
// workspaces, each with a 256 kB progress file whose commands hold escaped
// quotes (so their decoded values are scanned too): the reference
// repository's history spends most of its time on such a commit. The
// files are scanned in parallel.
func BenchmarkNewWorkspacesOfLargeFiles(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("small_version: \"1.0.0\"\nowner: agent\nentries:\n")
	for i := 0; sb.Len() < 256<<10; i++ {
		fmt.Fprintf(&sb, "    - command: \"curl -H \\\"Authorization: token $TOKEN\\\" https://api.example.com/keys/%d\"\n      evidence: rotated the api key of task %d\n      task_id: task-%d\n      timestamp: \"2026-01-14T17:47:07.507016000Z\"\n", i, i, i)
	}
	after := rulestest.Snapshot{}
	for i := range 3 {
		after[fmt.Sprintf("examples/w%d/%s", i, progress)] = sb.String()
	}
	u := rulestest.Staged(rulestest.Snapshot{}, after)
	opts := rules.Options{Rules: Rules(), Secrets: leaks.New(leaks.Options{})}
	for b.Loop() {
		if _, err := rules.Check([]changes.Unit{u}, opts); err != nil {
			b.Fatal(err)
		}
	}
}

// TestALargeUnitIsScannedAChangeAtATime checks a unit whose files hold
// more than parallelBytes together, which are scanned one after the other:
// every file's secret is still reported.
func TestALargeUnitIsScannedAChangeAtATime(t *testing.T) {
	filler := strings.Repeat("    - evidence: ran the suite\n      status: completed\n", parallelBytes/2/48+1)
	files := rulestest.Snapshot{
		"examples/a/" + progress: "entries:\n" + filler + "    - notes: used " + fakeAWS + "\n",
		"examples/b/" + progress: "entries:\n" + filler + "    - notes: posted to " + fakeSlack + "\n",
		plan:                     "tasks:\n  - id: t\n    title: push with " + fakeGitHub + "\n",
	}
	size := 0
	for _, f := range files {
		size += len(f)
	}
	if size <= parallelBytes {
		t.Fatalf("the unit holds %d bytes, not more than %d", size, parallelBytes)
	}
	found, err := check(t, env{}, rulestest.Tree(files))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(".small/plan.small.yml:3:secrets/github-pat examples/a/%s:%d:secrets/aws-access-token examples/b/%[1]s:%[2]d:secrets/slack-bot-token",
		progress, lineOf(t, files["examples/a/"+progress], fakeAWS))
	if got := summary(found); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
