package small

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/rulestest"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/schemas"
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

// TestReferenceWorkspacePasses: the workspace a long run of the small CLI
// wrote (1,379 progress entries) passes as a tree. (The short one is a
// case: testdata/schema/the-reference-workspace.txtar.)
func TestReferenceWorkspacePasses(t *testing.T) {
	if got := check(t, rules.Error, rulestest.Tree(readWorkspace(t, "reference-repo"))); len(got) > 0 {
		t.Errorf("reference-repo: %v", got)
	}
}

// TestInvalidUTF8IsAParseError: a canonical file that is not UTF-8 (a
// byte no text file holds, which a case file cannot hold either) is
// small/parse's finding.
func TestInvalidUTF8IsAParseError(t *testing.T) {
	base := readWorkspace(t, "reference-init")
	got := check(t, rules.Error, rulestest.Staged(base, with(base, rootPlan, "owner: \xff\n")))
	if strings.Join(got, ",") != "small/parse" {
		t.Errorf("errors %v, want small/parse", got)
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
