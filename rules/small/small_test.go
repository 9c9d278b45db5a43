package small

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
	"github.com/small-hook/small-hook/schemas"
	"github.com/small-hook/small-hook/yamldoc"
	"gopkg.in/yaml.v3"
)

// readWorkspace reads a reference-written .small/ directory from testdata.
func readWorkspace(t testing.TB, name string) rulestest.Snapshot {
	t.Helper()
	dir := filepath.Join("..", "..", "testdata", "small", name, ".small")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := rulestest.Snapshot{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[rootDir+e.Name()] = string(data)
	}
	return files
}

func with(files rulestest.Snapshot, path, content string) rulestest.Snapshot {
	out := rulestest.Snapshot{}
	for k, v := range files {
		out[k] = v
	}
	if content == "" {
		delete(out, path)
	} else {
		out[path] = content
	}
	return out
}

const newEntry = `    - evidence: go vet ./... is clean
      replayId: ab1497cf5afa8dccde350b967d256c58aea53f18794ab590487f25e4f3a040f2
      status: completed
      task_id: task-3
      timestamp: "2026-11-22T10:20:00.000000001Z"
`

// check runs every SMALL rule over units and returns "rule@line" strings
// for the findings at severity sev.
func check(t *testing.T, sev rules.Severity, units ...changes.Unit) []string {
	t.Helper()
	findings, err := rules.Check(units, rules.Options{Rules: Rules(), Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range findings {
		if f.Severity == sev {
			out = append(out, f.Rule)
		}
	}
	return out
}

func TestReferenceWorkspacesPass(t *testing.T) {
	for _, name := range []string{"reference-init", "reference-repo"} {
		if got := check(t, rules.Error, rulestest.Tree(readWorkspace(t, name))); len(got) > 0 {
			t.Errorf("%s: %v", name, got)
		}
	}
}

func TestStagedChanges(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	progress := base[rootProgress]
	cases := []struct {
		name  string
		after rulestest.Snapshot
		want  string // comma-separated error rules, "" for none
	}{
		{"pure append", with(base, rootProgress, progress+newEntry), ""},
		{"append of two entries", with(base, rootProgress, progress+newEntry+strings.Replace(newEntry, "10:20:00", "10:21:00", 1)), ""},
		{"edit an entry", with(base, rootProgress, strings.Replace(progress, "go test ./parser passed", "x", 1)), "small/append-only"},
		{"delete progress", with(base, rootProgress, ""), "small/append-only,small/required"},
		{"owner changed", with(base, rootProgress, strings.Replace(progress, "owner: agent", "owner: human", 1)), "small/append-only,small/schema"},
		{"no evidence", with(base, rootProgress, progress+strings.Replace(newEntry, "evidence: go vet ./... is clean", "notes: trust me", 1)), "small/evidence"},
		{"blank evidence", with(base, rootProgress, progress+strings.Replace(newEntry, "evidence: go vet ./... is clean", "evidence: '  '", 1)), "small/evidence"},
		{"timestamp without fraction", with(base, rootProgress, progress+strings.Replace(newEntry, "10:20:00.000000001Z", "10:20:00Z", 1)), "small/timestamp"},
		{"timestamp unquoted", with(base, rootProgress, progress+strings.Replace(newEntry, `"2026-11-22T10:20:00.000000001Z"`, "2026-11-22T10:20:00.000000001Z", 1)), "small/schema,small/timestamp"},
		{"timestamp not RFC 3339", with(base, rootProgress, progress+strings.Replace(newEntry, "2026-11-22T10:20:00.000000001Z", "yesterday", 1)), "small/timestamp"},
		{"timestamp missing", with(base, rootProgress, progress+strings.Replace(newEntry, `      timestamp: "2026-11-22T10:20:00.000000001Z"`+"\n", "", 1)), "small/timestamp"},
		{"timestamp earlier", with(base, rootProgress, progress+strings.Replace(newEntry, "10:20:00", "09:00:00", 1)), "small/timestamp"},
		{"bad status", with(base, rootProgress, progress+strings.Replace(newEntry, "completed", "done", 1)), "small/schema"},
		{"upper-case commit", with(base, rootProgress, progress+strings.Replace(newEntry, "status: completed", "commit: ABCDEF1", 1)), "small/schema"},
		{"unknown newEntry key", with(base, rootProgress, progress+strings.Replace(newEntry, "status: completed", "summary: hi", 1)), "small/schema"},
		{"version as number", with(base, rootIntent, strings.Replace(base[rootIntent], `small_version: "1.0.0"`, "small_version: 1.0", 1)), "small/version"},
		{"version other string", with(base, rootPlan, strings.Replace(base[rootPlan], `small_version: "1.0.0"`, `small_version: "1.0"`, 1)), "small/version"},
		{"unexpected file", with(base, rootDir+"notes.txt", "x"), "small/layout"},
		{"extension file", with(base, rootDir+"ext/tool/state.json", "{}"), ""},
		{"invalid YAML", with(base, rootPlan, "tasks: [\n"), "small/parse"},
		{"duplicate key", with(base, rootPlan, base[rootPlan]+"owner: agent\n"), "small/parse"},
		{"top level list", with(base, rootPlan, "- a\n"), "small/parse"},
		{"not UTF-8", with(base, rootPlan, "owner: \xff\n"), "small/parse"},
		{"empty file", with(base, rootPlan, "\n"), "small/parse"},
		{"handoff names a missing task", with(base, rootHandoff, strings.Replace(base[rootHandoff], "resume:\n", "resume:\n    current_task_id: task-9\n", 1)), "small/handoff"},
		{"handoff names a plan task", with(base, rootHandoff, strings.Replace(base[rootHandoff], "resume:\n", "resume:\n    current_task_id: task-2\n", 1)), ""},
		{"handoff names a meta entry", with(base, rootHandoff, strings.Replace(base[rootHandoff], "resume:\n", "resume:\n    current_task_id: meta/accept-intent\n", 1)), ""},
		{"constraints severity", with(base, rootConstraints, strings.Replace(base[rootConstraints], `"error"`, `"fatal"`, 1)), "small/schema"},
		{"intent missing scope", with(base, rootIntent, "intent: x\nowner: human\nsmall_version: \"1.0.0\"\nsuccess_criteria: []\n"), "small/schema"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(dedupe(check(t, rules.Error, rulestest.Staged(base, tc.after))), ",")
			if got != tc.want {
				t.Errorf("errors %q, want %q", got, tc.want)
			}
		})
	}
}

func dedupe(ids []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return sortStrings(out)
}

func sortStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

func TestReplayIDWarning(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	other := strings.Replace(newEntry, "ab1497cf", "cd1497cf", 1)
	if got := check(t, rules.Warning, rulestest.Staged(base, with(base, rootProgress, base[rootProgress]+other))); strings.Join(got, ",") != "small/replay-id" {
		t.Errorf("warnings %v", got)
	}
	if got := check(t, rules.Warning, rulestest.Staged(base, with(base, rootProgress, base[rootProgress]+newEntry))); len(got) > 0 {
		t.Errorf("warnings %v", got)
	}
}

func TestFindingsNameTheLine(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	after := with(base, rootProgress, strings.Replace(base[rootProgress], "go test ./parser passed", "x", 1))
	findings, err := rules.Check([]changes.Unit{rulestest.Staged(base, after)}, rules.Options{Rules: Rules(), Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	if len(findings) != 1 || findings[0].Line != 27 || !strings.Contains(findings[0].Message, "entry 5 (task_id task-2)") || !strings.Contains(findings[0].Message, "evidence differs") {
		t.Errorf("findings %+v", findings)
	}
	appended := with(base, rootProgress, base[rootProgress]+strings.Replace(newEntry, "completed", "done", 1))
	findings, _ = rules.Check([]changes.Unit{rulestest.Staged(base, appended)}, rules.Options{Rules: Rules(), Config: config.Default()})
	if len(findings) != 1 || findings[0].Line != 45 || !strings.Contains(findings[0].Message, "progress entry (task_id task-3): status must be one of pending") {
		t.Errorf("appended newEntry finding %+v", findings)
	}
}

func TestReserialisedProgressPasses(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(base[rootProgress]), &doc); err != nil {
		t.Fatal(err)
	}
	// Reverse the key order of every entry, and write with 2-space indentation.
	for _, e := range doc.Content[0].Content[5].Content {
		for i, j := 0, len(e.Content)-2; i < j; i, j = i+2, j-2 {
			e.Content[i], e.Content[j] = e.Content[j], e.Content[i]
			e.Content[i+1], e.Content[j+1] = e.Content[j+1], e.Content[i+1]
		}
		for _, v := range e.Content {
			v.Style = yaml.DoubleQuotedStyle
		}
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		t.Fatal(err)
	}
	after := with(base, rootProgress, b.String())
	if after[rootProgress] == base[rootProgress] {
		t.Fatal("the file was not re-serialised")
	}
	if got := check(t, rules.Error, rulestest.Staged(base, after)); len(got) > 0 {
		t.Errorf("re-serialisation reported: %v", got)
	}
}

func TestMergeOfTwoAppendsPasses(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	a := base[rootProgress] + newEntry
	b := base[rootProgress] + strings.Replace(newEntry, "10:20:00", "10:20:30", 1)
	merged := a + strings.Replace(newEntry, "10:20:00", "10:20:30", 1)
	unit := func(result string) changes.Unit {
		return changes.Unit{Mode: changes.ModeRange, Commit: &changes.Commit{Hash: strings.Repeat("a", 40), Parents: []string{strings.Repeat("b", 40), strings.Repeat("c", 40)}},
			Changes: []changes.Change{{Path: rootProgress, Old: rulestest.Blob(a), New: rulestest.Blob(result),
				Merge: &changes.Merge{Base: rulestest.Blob(base[rootProgress]), Parents: []*changes.Blob{rulestest.Blob(a), rulestest.Blob(b)}}}},
			Files: with(base, rootProgress, result)}
	}
	if got := check(t, rules.Error, unit(merged)); len(got) > 0 {
		t.Errorf("legitimate merge: %v", got)
	}
	if got := check(t, rules.Error, unit(a)); strings.Join(got, ",") != "small/append-only" {
		t.Errorf("merge dropping a parent's entry: %v", got)
	}
	evil := strings.Replace(merged, "go test ./parser passed", "x", 1)
	if got := dedupe(check(t, rules.Error, unit(evil))); !contains(got, "small/append-only") {
		t.Errorf("evil merge: %v", got)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestFastPathAgreesWithFullComparison(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	old := base[rootProgress]
	tails := map[string]bool{
		newEntry: true,
		strings.Replace(newEntry, "completed", "done", 1): true,
		"owner: human\n":             false,
		"  # a comment\n" + newEntry: false,
		newEntry + "extra: 1\n":      false,
		"    - task_id: [\n":         false,
	}
	for tail, fast := range tails {
		v := fastAppend([]byte(old), []byte(old+tail))
		if (v != nil) != fast {
			t.Errorf("fast path for %q: %v, want %v", tail, v != nil, fast)
		}
	}
	if v := fastAppend([]byte(old), []byte(old+newEntry)); v == nil || v.before == nil || v.before.taskID() != "task-3" || len(v.added) != 1 {
		t.Fatalf("fast view %+v", v)
	}
	if got := check(t, rules.Error, rulestest.Staged(base, with(base, rootProgress, old+"owner: human\n"))); !contains(got, "small/parse") {
		t.Errorf("appended top-level duplicate key: %v", got)
	}
}

func benchmarkUnit(b *testing.B) changes.Unit {
	base := readWorkspace(b, "reference-repo")
	tail := strings.Replace(newEntry, "2026-11-22", "2027-01-01", 1)
	return rulestest.Staged(base, with(base, rootProgress, base[rootProgress]+tail))
}

func BenchmarkStagedAppendLargeProgress(b *testing.B) {
	u := benchmarkUnit(b)
	for b.Loop() {
		if _, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: Rules(), Config: config.Default()}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFullComparisonLargeProgress(b *testing.B) {
	base := readWorkspace(b, "reference-repo")
	// A change in the last newEntry defeats the byte-prefix proof.
	after := with(base, rootProgress, strings.TrimSuffix(base[rootProgress], "\n")+" \n")
	u := rulestest.Staged(base, after)
	for b.Loop() {
		if _, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: Rules(), Config: config.Default()}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeLargeProgress(b *testing.B) {
	data := []byte(readWorkspace(b, "reference-repo")[rootProgress])
	for b.Loop() {
		if _, err := yamldoc.Decode(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidateOneEntry(b *testing.B) {
	doc, err := yamldoc.Decode([]byte(newEntry))
	if err != nil {
		b.Fatal(err)
	}
	entry := doc.Value.([]any)[0]
	set := schemas.New()
	for b.Loop() {
		if _, err := set.Validate("progress", "#/$defs/entry", entry); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSequenceEndCarriesOver checks that where an append leaves the
// sequence's end is where a fresh search of the new file finds it, so a
// range can skip the search for each next commit.
func TestSequenceEndCarriesOver(t *testing.T) {
	old := readWorkspace(t, "reference-init")[rootProgress]
	tails := []string{newEntry, newEntry + strings.Replace(newEntry, "10:20:00", "10:21:00", 1), "    - task_id: x\n      evidence: |\n        - not an item\n        more\n"}
	for _, tail := range tails {
		v, end := appendView([]byte(old), []byte(old+tail), findEnd([]byte(old)))
		if v == nil {
			t.Fatalf("append of %q not proved", tail)
		}
		want := findEnd([]byte(old + tail))
		if end.indent != want.indent || end.last.line != want.last.line || string(end.last.text) != string(want.last.text) {
			t.Errorf("after %q: carried %d %q, found %d %q", tail, end.last.line, end.last.text, want.last.line, want.last.text)
		}
	}
}

// The files of the root workspace, for tests.
const (
	rootDir         = ".small/"
	rootIntent      = rootDir + Intent
	rootConstraints = rootDir + Constraints
	rootPlan        = rootDir + Plan
	rootProgress    = rootDir + Progress
	rootHandoff     = rootDir + Handoff
)
