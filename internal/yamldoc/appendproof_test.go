package yamldoc

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func readReferenceProgress(t testing.TB) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "small", "reference-repo", ".small", "progress.small.yml"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// referenceEntry is an entry as the reference SMALL CLI appends it.
func referenceEntry(task, timestamp string) string {
	return "    - evidence: go vet ./... is clean\n" +
		"      replayId: " + strings.Repeat("5e", 32) + "\n" +
		"      status: completed\n" +
		"      task_id: " + task + "\n" +
		"      timestamp: \"" + timestamp + "\"\n"
}

func TestReferenceAppendTakesTheFastPath(t *testing.T) {
	old := readReferenceProgress(t)
	end := FindSequenceEnd(old, "entries")
	if end == nil {
		t.Fatal("the reference progress file (1,206 entries, |- block scalars holding tabs, quotes and #) is not accepted")
	}
	new := append(bytes.Clone(old), referenceEntry("task-3", "2026-11-22T10:20:00.000000001Z")...)
	app := ProveAppend(end, old, new)
	if app == nil {
		t.Fatal("appending an entry to the reference progress file does not take the fast path")
	}
	if err := checkAppend(old, new, "entries", app); err != nil {
		t.Fatal(err)
	}
	items := app.Items.Value.([]any)
	entry := items[0].(map[string]any)
	if len(items) != 1 || entry["task_id"] != "task-3" || entry["timestamp"] != "2026-11-22T10:20:00.000000001Z" {
		t.Errorf("appended items %#v", items)
	}
	oldLines := bytes.Count(old, []byte("\n"))
	if line := app.Items.KeyLine("0", "task_id"); line != oldLines+4 {
		t.Errorf("the appended task_id is on line %d, want %d", line, oldLines+4)
	}
	previous := app.Previous.Value.(map[string]any)
	if previous["timestamp"] != "2026-04-01T19:23:01.523066000Z" || app.Previous.Line("timestamp") != oldLines {
		t.Errorf("previous entry %v on line %d", previous["timestamp"], app.Previous.Line("timestamp"))
	}

	// A second append starts from the end the first returned.
	newer := append(bytes.Clone(new), referenceEntry("task-4", "2026-11-22T10:21:00.000000001Z")...)
	again := ProveAppend(app.End, new, newer)
	if again == nil {
		t.Fatal("a second append from the returned end is refused")
	}
	if err := checkAppend(new, newer, "entries", again); err != nil {
		t.Fatal(err)
	}
	if again.Previous.Value.(map[string]any)["task_id"] != "task-3" {
		t.Errorf("the second append's previous entry is %v", again.Previous.Value)
	}
}

func TestProveAppendNeedsTheEndOfTheOldBytes(t *testing.T) {
	old := []byte("entries:\n    - a: 1\n")
	other := []byte("entries:\n    - a: 1\n    - b: 2\n")
	tail := "    - c: 3\n"
	end := FindSequenceEnd(old, "entries")
	if ProveAppend(nil, old, []byte(string(old)+tail)) != nil {
		t.Error("accepted without an end")
	}
	if ProveAppend(end, other, []byte(string(other)+tail)) != nil {
		t.Error("accepted an end computed from other bytes")
	}
	if ProveAppend(end, old, []byte("entries:\n    - a: 2\n"+tail)) != nil {
		t.Error("accepted a new file that does not start with the old one")
	}
	if ProveAppend(end, old, old) != nil {
		t.Error("accepted an unchanged file as an append")
	}
	if FindSequenceEnd(old, "entry") != nil || FindSequenceEnd(old, "") != nil {
		t.Error("found the end of a key the file does not have")
	}
}

// TestAppendProofAcceptsTheSubset appends to documents written in every
// form the subset allows and checks the contract on each.
func TestAppendProofAcceptsTheSubset(t *testing.T) {
	cases := []struct{ name, old, tail string }{
		{"indentless sequence", "owner: agent\nentries:\n- a: 1\n  b: x[y]{z}, w\n", "- c: 3\n- d: 4\n"},
		{"two-space indent", "entries:\n  - a: 1\n", "  - b: 2\n"},
		{"scalar items", "entries:\n    - x\n    - 'y'\n", "    - \"z\\n\\u00e9\"\n    - 12345678901234567890\n"},
		{"empty items and keys", "entries:\n    -\n    - a:\n      b:\n", "    -\n    - c:\n"},
		{"nested blocks", "entries:\n    - a:\n        b:\n          - c: 1\n          -\n            d: 2\n      e:\n      - f\n", "    - g:\n        - h\n"},
		{"block scalar last in old", "entries:\n    - command: |-\n        line one\n        \t\"quoted\" # not a comment\n\n        entries:\n", "    - b: 2\n"},
		{"folded scalars", "entries:\n    - a: >\n        x\n          y\n      b: >-\n        z\n", "    - c: |\n        w\n"},
		{"comments and blank lines", "# progress\n\nentries:\n    # first\n    - a: 1#1\n\n# between\n    - b: 2\n", "    - c: 3\n\n    # mine\n    - d: 4\n"},
		{"unicode and quotes", "entries:\n    - n: 'it''s — ü'\n      m: \"\\\"q\\\" \\x41 \\U0001F600\"\n", "    - n: 日本語\n"},
		{"keys like numbers", "entries:\n    - 1: a\n      2026-01-01: b\n      1e3: c\n", "    - true: d\n"},
		{"trailing spaces", "entries:   \n    - a: 1   \n    -   \n", "    - b:   \n"},
		{"deeper items", "a:\n  b: 1\nentries:\n    - a:\n        - b:\n            - c: d\n", "    - e:\n        - f\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old, new := []byte(c.old), []byte(c.old+c.tail)
			end := FindSequenceEnd(old, "entries")
			if end == nil {
				t.Fatalf("the old document is not accepted:\n%s", c.old)
			}
			app := ProveAppend(end, old, new)
			if app == nil {
				t.Fatalf("the append is not accepted:\n%s", c.tail)
			}
			if err := checkAppend(old, new, "entries", app); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestAppendProofRefusesWhatAScannerMisreads lists the ways a line scanner
// can read a document otherwise than yaml.v3 does. Each is refused; where
// marked, the test also shows that accepting it would let an append hide.
func TestAppendProofRefusesWhatAScannerMisreads(t *testing.T) {
	entry := "    - task_id: b\n      evidence: y\n"
	cases := []struct {
		name, old, tail string
		// hidden: yaml.v3 does not read the appended entry as a new entry.
		hidden bool
	}{
		{"\\r hides a comment line's end and nests the entries", "entries:\n#\r  - task_id: a\r    evidence:\r    - x\n    - task_id: a2\n", entry, true},
		{"lone \\r line ends", "small_version: \"1.0.0\"\rentries:\n    - task_id: a\r      evidence:\r        log:\r          - x\n", entry, false},
		{"\\r\\n line ends", "entries:\r\n    - task_id: a\r\n", entry, false},
		{"... ends the document", "entries:\n    - task_id: a\n...\n", entry, true},
		{"... after \\r", "entries:\n    - task_id: a\r...\n", entry, true},
		{"--- starts a second document", "entries:\n    - task_id: a\n---\n", entry, false},
		{"NEL", "entries:\n    - task_id: a\u0085    - task_id: z\n", entry, false},
		{"LS", "entries:\n    - task_id: a\u2028    - task_id: z\n", entry, false},
		{"PS", "entries:\n    - task_id: a\u2029    - task_id: z\n", entry, false},
		{"entries: inside a quoted multi-line string", "notes: \"x\nentries:\n    - fake\"\nentries:\n    - task_id: a\n", entry, false},
		{"entries: inside a single-quoted multi-line string", "entries:\n    - notes: 'x\n\n      entries: y'\n", entry, false},
		{"multi-line plain scalar", "entries:\n    - notes: x\n        y\n", entry, false},
		{"keep chomping takes the blank lines", "entries:\n    - command: |+\n        x\n\n", entry, false},
		{"append right after a block scalar, blank line first", "entries:\n    - command: |-\n        x\n", "\n" + entry, false},
		{"block scalar without content", "entries:\n    - command: |-\n", entry, false},
		{"block scalar with an indentation indicator", "entries:\n    - command: |2\n        x\n", entry, false},
		{"tab after a block scalar's first indentation", "entries:\n    - command: >-\n       \tx\n", entry, false},
		{"flow sequence", "entries: [a,\n  b]\n", "    - c\n", false},
		{"flow mapping in an entry", "entries:\n    - a: {b: 1,\n        c: 2}\n", entry, false},
		{"anchor and alias", "entries:\n    - &e task_id: a\n    - *e\n", entry, false},
		{"alias appended", "entries:\n    - a: &x 1\n", "    - b: *x\n", false},
		{"tag", "entries:\n    - a: !!binary aGk=\n", entry, false},
		{"complex key", "entries:\n    - ? a\n      : b\n", entry, false},
		{"comment after a value", "entries:\n    - a: b # c\n", entry, false},
		{"plain scalar with ': '", "entries:\n    - a: b: c\n", entry, false},
		{"invalid escape", "entries:\n    - a: \"\\q\"\n", entry, false},
		{"surrogate escape", "entries:\n    - a: \"\\ud800\"\n", entry, false},
		{"duplicate key in an old entry", "entries:\n    - a: 1\n      a: 2\n", entry, false},
		{"duplicate top-level entries", "entries:\n    - a: 1\nentries:\n    - b: 2\n", entry, false},
		{"NaN", "entries:\n    - a: .nan\n", entry, false},
		{"tab indentation", "entries:\n\t- a: 1\n", entry, false},
		{"byte order mark", "\ufeffentries:\n    - a: 1\n", entry, false},
		{"directive", "%YAML 1.2\n---\nentries:\n    - a: 1\n", entry, false},
		{"entries is not the last key", "entries:\n    - a: 1\nowner: agent\n", entry, false},
		{"entries is not top-level", "x:\n  entries:\n    - a: 1\n", "    - b: 2\n", false},
		{"no final newline", "entries:\n    - a: 1", "\n" + entry, false},
		{"appended key at the top level", "entries:\n    - a: 1\n", "owner: human\n", false},
		{"appended text continues the old entry", "entries:\n    - a:\n", "        b: 2\n" + entry, false},
		{"appended item at a deeper column", "entries:\n    - a:\n", "      - b\n", false},
		{"appended comment first", "entries:\n    - a: 1\n", "# c\n" + entry, false},
		{"appended document end", "entries:\n    - a: 1\n", entry + "...\n", false},
		{"appended second document", "entries:\n    - a: 1\n", entry + "---\nentries: []\n", false},
		{"appended \\r", "entries:\n    - a: 1\n", "    - b: 1\r    - c: 2\n", false},
		{"appended duplicate key", "entries:\n    - a: 1\n", "    - b: 1\n      b: 2\n", false},
		{"appended under an indentless sequence's key", "entries:\n- a: 1\n", "owner: x\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			old, new := []byte(c.old), []byte(c.old+c.tail)
			if app := ProveAppend(FindSequenceEnd(old, "entries"), old, new); app != nil {
				t.Fatalf("accepted:\nold:  %q\ntail: %q", c.old, c.tail)
			}
			if c.hidden && !appendIsHidden(old, new) {
				t.Errorf("yaml.v3 reads the appended entry as a new entry: the case shows nothing")
			}
		})
	}
}

// appendIsHidden reports whether yaml.v3, reading the first document of
// old and of new, finds as many entries in both: the appended one went
// elsewhere or was never read.
func appendIsHidden(old, new []byte) bool {
	count := func(data []byte) int {
		var m map[string]any
		if err := yaml.Unmarshal(data, &m); err != nil {
			return -1
		}
		list, _ := m["entries"].([]any)
		return len(list)
	}
	n := count(old)
	return n > 0 && n == count(new)
}
