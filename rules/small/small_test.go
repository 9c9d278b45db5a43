package small

import (
	"fmt"
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
	return files.With(path, content)
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
		{"timestamp unquoted", with(base, rootProgress, progress+strings.Replace(newEntry, `"2026-11-22T10:20:00.000000001Z"`, "2026-11-22T10:20:00.000000001Z", 1)), "small/schema"},
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
	if len(findings) != 1 || findings[0].Line != 45 || !strings.Contains(findings[0].Message, "progress entry 8 (task_id task-3): status must be one of pending") {
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

// TestMergeOfTwoAppendsIsJudgedFromTheAppendedEntries: a merge whose
// result is the first parent followed by what the second appended is
// judged without decoding the whole file, and still reports the second
// side's entries that break the schema and a join out of time order.
func TestMergeOfTwoAppendsIsJudgedFromTheAppendedEntries(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	later := strings.Replace(strings.Replace(newEntry, "10:20:00", "10:20:30", 1), "task_id: task-3", "task_id: task-4", 1)
	merge := func(ours, theirs string) changes.Unit {
		a, b := base[rootProgress]+ours, base[rootProgress]+theirs
		result := a + theirs
		return changes.Unit{Mode: changes.ModeRange, Commit: &changes.Commit{Hash: strings.Repeat("a", 40), Parents: []string{strings.Repeat("b", 40), strings.Repeat("c", 40)}},
			Changes: []changes.Change{{Path: rootProgress, Old: rulestest.Blob(a), New: rulestest.Blob(result),
				Merge: &changes.Merge{Base: rulestest.Blob(base[rootProgress]), Parents: []*changes.Blob{rulestest.Blob(a), rulestest.Blob(b)}}}},
			Files: with(base, rootProgress, result)}
	}
	if got := check(t, rules.Error, merge(newEntry, later)); len(got) > 0 {
		t.Errorf("merge in time order: %v", got)
	}
	if got := dedupe(check(t, rules.Error, merge(later, newEntry))); strings.Join(got, ",") != "small/timestamp" {
		t.Errorf("the second side's entries joined before a later entry: %v", got)
	}
	bad := strings.Replace(later, "status: completed", "status: finished", 1)
	if got := dedupe(check(t, rules.Error, merge(newEntry, bad))); strings.Join(got, ",") != "small/schema" {
		t.Errorf("the second side's entry breaks the schema: %v", got)
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
	fastView := func(old, new string) *progressView {
		app := yamldoc.ProveAppend(yamldoc.FindSequenceEnd([]byte(old), "entries"), []byte(old), []byte(new))
		if app == nil {
			return nil
		}
		return appendedView(app)
	}
	for tail, fast := range tails {
		v := fastView(old, old+tail)
		if (v != nil) != fast {
			t.Errorf("fast path for %q: %v, want %v", tail, v != nil, fast)
		}
	}
	v := fastView(old, old+newEntry)
	if v == nil || v.before == nil || v.before.taskID() != "task-3" || len(v.added) != 1 {
		t.Fatalf("fast view %+v", v)
	}
	if got, want := v.added[0].name(), "progress entry 8 (task_id task-3)"; got != want {
		t.Errorf("the appended entry is named %q, want %q", got, want)
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

// BenchmarkMergeLargeProgress: a merge of two branches that each appended
// an entry to the 1,379-entry progress file compares the result with both
// parents and the merge base, each decoded whole (on a goroutine each).
func BenchmarkMergeLargeProgress(b *testing.B) {
	base := readWorkspace(b, "reference-repo")
	theirs := strings.Replace(strings.Replace(newEntry, "10:20:00", "10:20:30", 1), "task_id: task-3", "task_id: task-4", 1)
	ours, other := base[rootProgress]+newEntry, base[rootProgress]+theirs
	result := ours + theirs
	u := changes.Unit{Mode: changes.ModeStaged,
		Changes: []changes.Change{{Path: rootProgress, Old: rulestest.Blob(ours), New: rulestest.Blob(result),
			Merge: &changes.Merge{Base: rulestest.Blob(base[rootProgress]), Parents: []*changes.Blob{rulestest.Blob(ours), rulestest.Blob(other)}}}},
		Files: with(base, rootProgress, result)}
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

// The files of the root workspace, for tests.
const (
	rootDir         = ".small/"
	rootIntent      = rootDir + Intent
	rootConstraints = rootDir + Constraints
	rootPlan        = rootDir + Plan
	rootProgress    = rootDir + Progress
	rootHandoff     = rootDir + Handoff
)

// sharedAnchorProgress is a progress file of n entries that all hold the
// same anchored mapping of keys keys.
func sharedAnchorProgress(n, keys int, reverse bool) string {
	var b strings.Builder
	b.WriteString("small_version: \"1.0.0\"\nowner: agent\nentries:\n")
	order := make([]int, n)
	for i := range order {
		order[i] = i
		if reverse {
			order[i] = n - 1 - i
		}
	}
	for k, i := range order {
		fmt.Fprintf(&b, "    - task_id: task-%d\n      evidence: checked\n      timestamp: \"2026-01-01T00:00:%02d.%09dZ\"\n      notes:\n", i, i/1_000_000, i%1_000_000+1)
		if k == 0 {
			b.WriteString("        &shared\n")
			for j := 0; j < keys; j++ {
				fmt.Fprintf(&b, "        k%d: v%d\n", j, j)
			}
			continue
		}
		b.WriteString("        *shared\n")
	}
	return b.String()
}

// TestSharedAnchorsAreComparedOnce: entries sharing one anchored mapping
// are compared as shared values, so a change to such a file is judged in
// time, whether it appends or reverses the entries (it used to take
// minutes).
func TestSharedAnchorsAreComparedOnce(t *testing.T) {
	old := sharedAnchorProgress(1500, 2000, false)
	for name, after := range map[string]string{
		"append":  old + "    - task_id: new\n      evidence: x\n      timestamp: \"2026-01-02T00:00:00.1Z\"\n",
		"reverse": sharedAnchorProgress(1500, 2000, true),
	} {
		base := rulestest.Snapshot{rootProgress: old}
		got := check(t, rules.Error, rulestest.Staged(base, rulestest.Snapshot{rootProgress: after}))
		if name == "reverse" && !contains(got, "small/append-only") {
			t.Errorf("reversed entries: %v", got)
		}
		if name == "append" && contains(got, "small/append-only") {
			t.Errorf("an append: %v", got)
		}
	}
}

// TestMigratedTimestampsAreTheSameTime: the rewrites of old timestamps
// that releases of `small progress migrate` make are accepted, and only
// those.
func TestMigratedTimestampsAreTheSameTime(t *testing.T) {
	entry := func(task, ts string) string {
		return "    - evidence: e\n      task_id: " + task + "\n      timestamp: \"" + ts + "\"\n"
	}
	file := func(ts ...string) string {
		s := "small_version: \"1.0.0\"\nowner: agent\nentries:\n"
		for i, x := range ts {
			s += entry(fmt.Sprintf("t%d", i), x)
		}
		return s
	}
	old := file("2026-01-07T03:23:38Z", "2026-01-07T03:23:38Z", "2026-01-07T03:23:38Z", "2026-01-09T23:30:00+01:00")
	cases := []struct {
		name string
		new  string
		ok   bool
	}{
		{"current migrate", file("2026-01-07T03:23:38.000000000Z", "2026-01-07T03:23:38.000000001Z", "2026-01-07T03:23:38.000000002Z", "2026-01-09T22:30:00.000000000Z"), true},
		{"earlier release: ties spread from +1 ns", file("2026-01-07T03:23:38.000000001Z", "2026-01-07T03:23:38.000000002Z", "2026-01-07T03:23:38.000000003Z", "2026-01-09T22:30:00.000000000Z"), true},
		{"the same instants, otherwise written", file("2026-01-07T03:23:38.0Z", "2026-01-07T03:23:38.000Z", "2026-01-07T03:23:38.000000000Z", "2026-01-09T22:30:00Z"), true},
		{"a tie spread too far", file("2026-01-07T03:23:38.000000000Z", "2026-01-07T03:23:38.000000001Z", "2026-01-07T03:23:38.000000009Z", "2026-01-09T22:30:00.000000000Z"), false},
		{"an instant moved back", file("2026-01-07T03:23:37.999999999Z", "2026-01-07T03:23:38.000000001Z", "2026-01-07T03:23:38.000000002Z", "2026-01-09T22:30:00.000000000Z"), false},
		{"a lone entry moved", file("2026-01-07T03:23:38Z", "2026-01-07T03:23:38Z", "2026-01-07T03:23:38Z", "2026-01-09T22:30:00.000000002Z"), false},
	}
	for _, c := range cases {
		base := rulestest.Snapshot{rootProgress: old}
		got := check(t, rules.Error, rulestest.Staged(base, rulestest.Snapshot{rootProgress: c.new}))
		if rewritten := contains(got, "small/append-only"); rewritten == c.ok {
			t.Errorf("%s: append-only findings %v, want accepted %v", c.name, got, c.ok)
		}
	}
}

// reserialise writes a progress file's entries in reverse key order with
// 2-space indentation after edit changed its list of entries: the fast
// path is out of play, so the full comparison decides.
func reserialise(t *testing.T, text string, edit func(entries []*yaml.Node) []*yaml.Node) string {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	top := doc.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "entries" {
			seq := top.Content[i+1]
			seq.Content = edit(seq.Content)
			for _, e := range seq.Content {
				for a, b := 0, len(e.Content)-2; a < b; a, b = a+2, b-2 {
					e.Content[a], e.Content[b] = e.Content[b], e.Content[a]
					e.Content[a+1], e.Content[b+1] = e.Content[b+1], e.Content[a+1]
				}
			}
		}
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestNewEntriesAreNewByPosition: with the file re-serialised, a copy of
// an old entry appended at the end (an older timestamp, a task completed
// again) is a new entry judged by small/timestamp, and an entry inserted
// before entry 1 is reported even when it copies an old one.
func TestNewEntriesAreNewByPosition(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	cases := []struct {
		name string
		edit func([]*yaml.Node) []*yaml.Node
		want string
	}{
		{"replay of an old entry at the end", func(e []*yaml.Node) []*yaml.Node { return append(e, e[2]) }, "small/timestamp"},
		{"a copy inserted before entry 1", func(e []*yaml.Node) []*yaml.Node { return append([]*yaml.Node{e[3]}, e...) }, "small/append-only"},
		{"a new entry inserted before entry 1", func(e []*yaml.Node) []*yaml.Node {
			var n yaml.Node
			if err := yaml.Unmarshal([]byte("task_id: task-9\nevidence: x\ntimestamp: \"2027-01-01T00:00:00.1Z\"\n"), &n); err != nil {
				t.Fatal(err)
			}
			return append([]*yaml.Node{n.Content[0]}, e...)
		}, "small/append-only"},
		{"nothing but re-serialisation", func(e []*yaml.Node) []*yaml.Node { return e }, ""},
	}
	for _, c := range cases {
		after := with(base, rootProgress, reserialise(t, base[rootProgress], c.edit))
		got := check(t, rules.Error, rulestest.Staged(base, after))
		if (c.want == "" && len(got) > 0) || (c.want != "" && !contains(got, c.want)) {
			t.Errorf("%s: %v, want %q", c.name, got, c.want)
		}
	}
}

// TestAnUnquotedTimestampIsOneFinding: an unquoted timestamp is one
// problem, reported once by small/schema, whether the entry is new or old
// (unquoting an old entry's timestamp is no rewrite of its history), and
// quoting it again is the fix, not a rewrite; with small/schema off,
// small/timestamp reports it.
func TestAnUnquotedTimestampIsOneFinding(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	progress := base[rootProgress]
	const quoted = `"2026-11-22T10:16:03.844175967Z"`
	unquoted := strings.Trim(quoted, `"`)
	if !strings.Contains(progress, quoted) {
		t.Fatal("the fixture no longer holds the timestamp")
	}
	schemaOff, err := config.Load([]byte("rules:\n  small/schema: off\n"))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name         string
		before, next string
		cfg          *config.Config
		want         string
	}{
		{"a new entry's", progress, progress + strings.Replace(newEntry, `"2026-11-22T10:20:00.000000001Z"`, "2026-11-22T10:20:00.000000001Z", 1), config.Default(), "small/schema"},
		{"an old entry's", progress, strings.Replace(progress, quoted, unquoted, 1), config.Default(), "small/schema"},
		{"quoted again", strings.Replace(progress, quoted, unquoted, 1), progress, config.Default(), ""},
		{"small/schema off", progress, progress + strings.Replace(newEntry, `"2026-11-22T10:20:00.000000001Z"`, "2026-11-22T10:20:00.000000001Z", 1), schemaOff, "small/timestamp"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := rulestest.Staged(with(base, rootProgress, c.before), with(base, rootProgress, c.next))
			findings, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: Rules(), Config: c.cfg})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range findings {
				got = append(got, f.Rule)
			}
			if strings.Join(got, ",") != c.want {
				t.Fatalf("findings %q, want %q: %v", got, c.want, findings)
			}
		})
	}
}

// TestARewriteIsOneFinding: a change that rewrites a thousand entries is
// one small/append-only finding naming the first five and how many more.
func TestARewriteIsOneFinding(t *testing.T) {
	base := readWorkspace(t, "reference-repo")
	progress := base[rootProgress]
	n := strings.Count(progress, "status: completed")
	if n < 100 {
		t.Fatalf("the fixture holds %d completed entries", n)
	}
	u := rulestest.Staged(base, with(base, rootProgress, strings.ReplaceAll(progress, "status: completed", "status: cancelled")))
	findings, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: Rules(), Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	var got []rules.Finding
	for _, f := range findings {
		if f.Rule == "small/append-only" {
			got = append(got, f)
		}
	}
	if len(got) != 1 || strings.Count(got[0].Message, "was changed (status differs)") != 5 || !strings.Contains(got[0].Message, fmt.Sprintf("and %d more", n-5)) {
		t.Fatalf("want one finding naming five rewrites and %d more, got %d: %v", n-5, len(got), got)
	}
}
