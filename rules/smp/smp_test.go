package smp

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
	"github.com/small-hook/small-hook/workspace"
)

const artifactPath = "artifacts/llm-context-research.md"

func fixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("../../testdata/smp/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// findings runs the SMP rules over one staged change of the artifact and
// returns "rule:severity" for each finding.
func findings(t *testing.T, cfg *config.Config, old, cur string) []string {
	t.Helper()
	before, after := rulestest.Snapshot{}, rulestest.Snapshot{}
	if old != "" {
		before[artifactPath] = old
	}
	if cur != "" {
		after[artifactPath] = cur
	}
	if cfg == nil {
		cfg = config.Default()
	}
	got, err := rules.Check([]changes.Unit{rulestest.Staged(before, after)}, rules.Options{Rules: Rules(), Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range got {
		if f.Line < 0 || (f.Line == 0 && cur != "") {
			t.Errorf("finding without a line: %+v", f)
		}
		out = append(out, f.Rule+":"+string(f.Severity))
	}
	return out
}

func TestRealHistory(t *testing.T) {
	versions := []string{"", fixture(t, "llm-context-research.v1.md"), fixture(t, "llm-context-research.v2.md"), fixture(t, "llm-context-research.v3.md")}
	for i := 1; i < len(versions); i++ {
		if got := findings(t, nil, versions[i-1], versions[i]); len(got) > 0 {
			t.Errorf("v%d: %v", i, got)
		}
	}
	got := findings(t, nil, versions[3], fixture(t, "llm-context-research.v4-merged.md"))
	if strings.Join(got, ",") != "smp/merge:warning" {
		t.Errorf("v4: %v, want only the warning for the missing merge source", got)
	}
}

func TestVersionArithmetic(t *testing.T) {
	v3 := fixture(t, "llm-context-research.v3.md")
	entry := func(action string) string {
		return "  - agent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'\n    action: " + action + "\n    timestamp: '2026-11-22T10:10:00.000Z'\n"
	}
	with := func(version string, entries ...string) string {
		s := strings.Replace(v3, "version: 3", "version: "+version, 1)
		return strings.Replace(s, "\n---\n\n# LLM", "\n"+strings.Join(entries, "")+"---\n\n# LLM", 1) + "\nchange\n"
	}
	cases := []struct {
		name, cur, want string
	}{
		{"updated raises by one", with("4", entry("updated")), ""},
		{"updated without a raise", with("3", entry("updated")), "smp/version:error"},
		{"updated raised twice", with("5", entry("updated")), "smp/version:error"},
		{"two updates raise by two", with("5", entry("updated"), strings.Replace(entry("updated"), "10:10", "10:11", 1)), ""},
		{"synced without a raise", with("3", entry("synced")), ""},
		{"synced with a raise", with("4", entry("synced")), ""},
		{"version goes down", with("2", entry("updated")), "smp/version:error"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(findings(t, nil, v3, tc.cur), ","); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if got := findings(t, nil, "", strings.Replace(v3, "version: 3", "version: 2", 1)); strings.Join(got, ",") != "smp/version:error" {
		t.Errorf("a new artifact below its entry count: %v", got)
	}
}

func TestSyncReplace(t *testing.T) {
	v3 := fixture(t, "llm-context-research.v3.md")
	synced := func(ts string) string {
		return strings.Replace(v3, "\n---\n\n# LLM", "\n  - agent: unknown\n    action: synced\n    timestamp: '"+ts+"'\n---\n\n# LLM", 1)
	}
	old, cur := synced("2026-11-22T10:10:00.000Z"), synced("2026-11-22T10:11:00.000Z")
	if got := strings.Join(findings(t, nil, old, cur), ","); got != "smp/append-only:error" {
		t.Errorf("default: %q", got)
	}
	cfg := config.Default()
	cfg.SMP.SyncReplace = "warning"
	if got := strings.Join(findings(t, cfg, old, cur), ","); got != "smp/append-only:warning" {
		t.Errorf("with sync-replace: warning: %q", got)
	}
}

func TestOnlyArtifactsAreJudged(t *testing.T) {
	before := rulestest.Snapshot{}
	after := rulestest.Snapshot{"artifacts/x.md.bak": "not frontmatter", "artifacts/sub/y.md": "no", "artifacts/README.txt": "x"}
	got, err := rules.Check([]changes.Unit{rulestest.Staged(before, after)}, rules.Options{Rules: Rules(), Config: config.Default()})
	if err != nil || len(got) > 0 {
		t.Errorf("%v %+v", err, got)
	}
}

// The tests below judge every SMP rule over the awp-written fixtures, with
// the rule ID, severity and line of each finding.

const didA = "did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW"

// art is where the llm-context-research fixtures live in a repository.
const art = artifactPath

func v1(t *testing.T) string { return fixture(t, "llm-context-research.v1.md") }
func v2(t *testing.T) string { return fixture(t, "llm-context-research.v2.md") }
func v3(t *testing.T) string { return fixture(t, "llm-context-research.v3.md") }
func v4(t *testing.T) string { return fixture(t, "llm-context-research.v4-merged.md") }

// replace replaces the only occurrence of old in s, failing the test when
// old does not occur exactly once (so that a mutation is never a no-op).
func replace(t *testing.T, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 {
		t.Fatalf("mutation: %q occurs %d times, want 1", old, n)
	}
	return strings.Replace(s, old, new, 1)
}

// splitProvenance cuts a fixture into the text before its first
// provenance entry, the entries, and the text from the closing fence on.
func splitProvenance(t *testing.T, s string) (head string, entries []string, tail string) {
	t.Helper()
	const marker = "provenance:\n"
	i := strings.Index(s, marker)
	if i < 0 {
		t.Fatal("no provenance in fixture")
	}
	i += len(marker)
	j := strings.Index(s[i:], "\n---\n")
	if j < 0 {
		t.Fatal("no closing fence in fixture")
	}
	j += i + 1
	for _, e := range strings.SplitAfter(s[i:j], "\n") {
		switch {
		case e == "":
		case strings.HasPrefix(e, "  - "):
			entries = append(entries, e)
		default:
			entries[len(entries)-1] += e
		}
	}
	return s[:i], entries, s[j:]
}

func joinProvenance(head string, entries []string, tail string) string {
	return head + strings.Join(entries, "") + tail
}

// lineOf is the 1-based line of the only occurrence of sub in s.
func lineOf(t *testing.T, s, sub string) int {
	t.Helper()
	if n := strings.Count(s, sub); n != 1 {
		t.Fatalf("lineOf: %q occurs %d times, want 1", sub, n)
	}
	return strings.Count(s[:strings.Index(s, sub)], "\n") + 1
}

// keyLine is the line of the top-level key of s.
func keyLine(t *testing.T, s, key string) int {
	t.Helper()
	return lineOf(t, s, "\n"+key+":") + 1
}

// entryLine is the line of provenance entry i (0-based) of s.
func entryLine(t *testing.T, s string, i int) int {
	t.Helper()
	head, entries, _ := splitProvenance(t, s)
	line := strings.Count(head, "\n") + 1
	for k := 0; k < i; k++ {
		line += strings.Count(entries[k], "\n")
	}
	return line
}

// commit builds a range-mode unit for one commit.
func commit(hash string, before, after rulestest.Snapshot) changes.Unit {
	u := rulestest.Staged(before, after)
	u.Mode = changes.ModeRange
	u.Commit = &changes.Commit{Hash: hash, Message: "awp commit\n", Author: changes.Identity{Name: "A", Email: "a@example.com"}}
	return u
}

// check runs every SMP rule over units.
func check(t *testing.T, cfg *config.Config, units ...changes.Unit) []rules.Finding {
	t.Helper()
	if cfg == nil {
		cfg = config.Default()
	}
	got, err := rules.Check(units, rules.Options{Rules: Rules(), Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func dump(fs []rules.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\n  %s %s %s:%d %s", f.Rule, f.Severity, f.Path, f.Line, f.Text())
	}
	return b.String()
}

// want is one expected finding. line is the exact expected line; -1 means
// "any line above 0".
type want struct {
	rule string
	sev  rules.Severity
	line int
}

// expect checks that every wanted finding is there; with exact, that there
// is nothing else.
func expect(t *testing.T, got []rules.Finding, exact bool, wants ...want) {
	t.Helper()
	used := make([]bool, len(got))
	for _, w := range wants {
		found := false
		for i, f := range got {
			if used[i] || f.Rule != w.rule || f.Severity != w.sev {
				continue
			}
			if w.line == -1 && f.Line <= 0 || w.line >= 0 && f.Line != w.line {
				continue
			}
			used[i], found = true, true
			break
		}
		if !found {
			t.Errorf("missing %s %s at line %d; got:%s", w.rule, w.sev, w.line, dump(got))
		}
	}
	if exact && len(got) != len(wants) {
		t.Errorf("got %d findings, want %d:%s", len(got), len(wants), dump(got))
	}
	for _, f := range got {
		if f.Path == "" || f.Text() == "" {
			t.Errorf("finding without path or message: %+v", f)
		}
	}
}

func TestAWPHistoryAsCommits(t *testing.T) {
	s1 := rulestest.Snapshot{art: v1(t)}
	s2 := rulestest.Snapshot{art: v2(t)}
	s3 := rulestest.Snapshot{art: v3(t)}
	s4 := rulestest.Snapshot{art: v4(t)}
	units := []changes.Unit{
		commit(strings.Repeat("1", 40), nil, s1),
		commit(strings.Repeat("2", 40), s1, s2),
		commit(strings.Repeat("3", 40), s2, s3),
		commit(strings.Repeat("4", 40), s3, s4),
	}
	got := check(t, nil, units...)
	expect(t, got, true, want{"smp/merge", rules.Warning, entryLine(t, v4(t), 3)})
	if len(got) == 1 {
		if got[0].Commit != strings.Repeat("4", 40) || got[0].Path != art {
			t.Errorf("merge warning on commit %q path %q", got[0].Commit, got[0].Path)
		}
		if !strings.Contains(got[0].Text(), "artifact:transformer-analysis") {
			t.Errorf("merge warning does not name the missing source: %s", got[0].Text())
		}
	}

	// With the source artifact in the repository, the merge is traceable.
	src := "artifacts/transformer-analysis.md"
	with := func(s rulestest.Snapshot) rulestest.Snapshot {
		out := rulestest.Snapshot{src: "# Transformer Analysis\n"}
		for k, v := range s {
			out[k] = v
		}
		return out
	}
	got = check(t, nil, commit(strings.Repeat("4", 40), with(s3), with(s4)))
	expect(t, got, true)
}

func TestAWPFilesPassTreeMode(t *testing.T) {
	for name, files := range map[string]rulestest.Snapshot{
		"quick-note": {"artifacts/quick-note.md": fixture(t, "quick-note.anonymous.md")},
		"v1":         {art: v1(t)},
		"v2":         {art: v2(t)},
		"v3":         {art: v3(t)},
		"v4 with source": {
			art:                                 v4(t),
			"artifacts/transformer-analysis.md": replace(t, replace(t, v1(t), "id: 'artifact:llm-context-research'", "id: 'artifact:transformer-analysis'"), "title: LLM Context Window Research", "title: Transformer Analysis"),
		},
	} {
		t.Run(name, func(t *testing.T) {
			expect(t, check(t, nil, rulestest.Tree(files)), true)
		})
	}
}

func TestMutations(t *testing.T) {
	h3, e3, t3 := splitProvenance(t, v3(t))
	syncedA := "  - agent: '" + didA + "'\n    action: synced\n    timestamp: '2026-11-22T10:10:00.000Z'\n    message: Synced from team\n    syncSource: 'remote:team'\n"
	syncedB := "  - agent: '" + didA + "'\n    action: synced\n    timestamp: '2026-11-22T10:11:00.000Z'\n    message: Synced again from team\n    syncSource: 'remote:team'\n"
	v3synced := joinProvenance(h3, append(append([]string{}, e3...), syncedA), t3)
	v3resynced := joinProvenance(h3, append(append([]string{}, e3...), syncedB), t3)
	bomCRLF := "\ufeff" + strings.ReplaceAll(v1(t), "\n", "\r\n")
	syncWarning := config.Default()
	syncWarning.SMP.SyncReplace = "warning"
	none := func(*testing.T, string) []want { return nil }

	type tc struct {
		name   string
		path   string // default art
		before string // "" means absent
		after  string // "" means absent (deleted)
		tree   bool
		// inAWP puts the file in an AWP workspace (its marker declared),
		// where a file needs no declaration of its own to be governed.
		inAWP bool
		cfg   *config.Config
		exact bool
		wants func(t *testing.T, after string) []want
	}
	at := func(rule string, sev rules.Severity, line int) []want { return []want{{rule, sev, line}} }
	cases := []tc{
		{
			name:   "edit an old entry's message",
			before: v3(t),
			after:  replace(t, v3(t), "message: Added summary", "message: Added a summary"),
			wants: func(t *testing.T, a string) []want {
				return at("smp/append-only", rules.Error, entryLine(t, a, 1))
			},
		},
		{
			name:   "delete an entry",
			before: v3(t),
			after:  joinProvenance(h3, []string{e3[0], e3[2]}, t3),
			wants: func(t *testing.T, a string) []want {
				return at("smp/append-only", rules.Error, entryLine(t, a, 1))
			},
		},
		{
			name:   "reorder two entries",
			before: v3(t),
			after:  joinProvenance(h3, []string{e3[0], e3[2], e3[1]}, t3),
			wants: func(t *testing.T, a string) []want {
				return at("smp/append-only", rules.Error, entryLine(t, a, 1))
			},
		},
		{
			name:   "change created",
			before: v3(t),
			after:  replace(t, v3(t), "created: '2026-11-22T10:09:02.571Z'", "created: '2026-11-22T09:00:00.000Z'"),
			wants: func(t *testing.T, a string) []want {
				return at("smp/append-only", rules.Error, keyLine(t, a, "created"))
			},
		},
		{
			name:   "delete the file",
			before: v3(t),
			after:  "",
			exact:  true,
			wants:  func(*testing.T, string) []want { return at("smp/append-only", rules.Error, 0) },
		},
		{
			name:   "version goes down",
			before: v3(t),
			after:  replace(t, v3(t), "version: 3", "version: 2"),
			exact:  true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/version", rules.Error, keyLine(t, a, "version"))
			},
		},
		{
			name:   "version not bumped after an updated entry",
			before: v2(t),
			after:  replace(t, v3(t), "version: 3", "version: 2"),
			exact:  true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/version", rules.Error, keyLine(t, a, "version"))
			},
		},
		{
			name:   "version bumped by two for one entry",
			before: v2(t),
			after:  replace(t, v3(t), "version: 3", "version: 4"),
			exact:  true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/version", rules.Error, keyLine(t, a, "version"))
			},
		},
		{
			name:  "first entry is not created",
			path:  "artifacts/quick-note.md",
			tree:  true,
			after: replace(t, fixture(t, "quick-note.anonymous.md"), "action: created", "action: updated"),
			exact: true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/provenance", rules.Error, entryLine(t, a, 0))
			},
		},
		{
			name:   "a second created entry",
			before: v1(t),
			after:  replace(t, v2(t), "action: updated", "action: created"),
			wants: func(t *testing.T, a string) []want {
				return at("smp/provenance", rules.Error, entryLine(t, a, 1))
			},
		},
		{
			name:   "new entry earlier than the one before",
			before: v2(t),
			after:  replace(t, v3(t), "timestamp: '2026-11-22T10:09:03.236Z'", "timestamp: '2026-11-22T10:09:02.000Z'"),
			exact:  true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/provenance", rules.Error, entryLine(t, a, 2))
			},
		},
		{
			// The line is that of the authors list's first item.
			name:   "an author removed",
			before: v3(t),
			after:  replace(t, v4(t), "authors:\n  - '"+didA+"'\n", "authors:\n"),
			wants: func(t *testing.T, a string) []want {
				return at("smp/provenance", rules.Error, keyLine(t, a, "authors")+1)
			},
		},
		{
			// The line is that of the provenance list's first item.
			name:   "body changed without a new entry",
			before: v3(t),
			after:  replace(t, v3(t), "| A | 128k |", "| A | 200k |"),
			exact:  true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/unrecorded-change", rules.Error, keyLine(t, a, "provenance")+1)
			},
		},
		{
			name:   "metadata changed without a new entry",
			before: v3(t),
			after:  replace(t, v3(t), "title: LLM Context Window Research", "title: Context Windows"),
			exact:  true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/unrecorded-change", rules.Error, keyLine(t, a, "provenance")+1)
			},
		},
		{
			name:  "id does not match the file name",
			path:  "artifacts/context-research.md",
			tree:  true,
			after: v1(t),
			exact: true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/id", rules.Error, keyLine(t, a, "id"))
			},
		},
		{
			name:   "id changed",
			path:   "artifacts/context-research.md",
			before: replace(t, v1(t), "id: 'artifact:llm-context-research'", "id: 'artifact:context-research'"),
			after:  v2(t),
			exact:  true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/id", rules.Error, keyLine(t, a, "id"))
			},
		},
		{
			name:  "confidence 1.5",
			tree:  true,
			after: replace(t, v1(t), "confidence: 0.6", "confidence: 1.5"),
			exact: true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/schema", rules.Error, keyLine(t, a, "confidence"))
			},
		},
		{
			name:  "a file name that is not a slug",
			path:  "artifacts/LLM_Research.md",
			tree:  true,
			after: replace(t, v1(t), "id: 'artifact:llm-context-research'", "id: 'artifact:LLM_Research'"),
			exact: true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/id", rules.Error, keyLine(t, a, "id"))
			},
		},
		{
			name:  "an id that is not a slug",
			tree:  true,
			after: replace(t, v1(t), "id: 'artifact:llm-context-research'", "id: 'artifact:LLM-Context-Research'"),
			exact: true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/id", rules.Error, keyLine(t, a, "id"))
			},
		},
		{
			name:  "an id that is not a string",
			tree:  true,
			after: replace(t, v1(t), "id: 'artifact:llm-context-research'", "id: [artifact:llm-context-research]"),
			exact: true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/schema", rules.Error, keyLine(t, a, "id"))
			},
		},
		{
			name:  "missing required key",
			tree:  true,
			after: replace(t, v1(t), "title: LLM Context Window Research\n", ""),
			exact: true,
			wants: func(*testing.T, string) []want { return at("smp/schema", rules.Error, -1) },
		},
		{
			name:  "missing frontmatter",
			path:  "artifacts/notes.md",
			tree:  true,
			inAWP: true,
			after: "# Notes\n\nNo frontmatter here.\n",
			exact: true,
			wants: func(*testing.T, string) []want { return at("smp/parse", rules.Error, 1) },
		},
		{
			name:  "unclosed frontmatter",
			tree:  true,
			after: replace(t, v1(t), "\n---\n\n#", "\n\n#"),
			exact: true,
			wants: func(*testing.T, string) []want { return at("smp/parse", rules.Error, 1) },
		},
		{
			name:  "duplicate key",
			tree:  true,
			after: replace(t, v1(t), "version: 1\n", "version: 1\ntitle: Again\n"),
			exact: true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/parse", rules.Error, lineOf(t, a, "title: Again"))
			},
		},
		{
			name:   "merged entry without a separator",
			before: v3(t),
			after:  replace(t, v4(t), "*Merged from artifact:transformer-analysis (version 2) on 2026-11-22T10:09:04.734Z*\n", ""),
			exact:  true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/merge", rules.Warning, entryLine(t, a, 3))
			},
		},
		{
			name:   "awp sync-replace is an error by default",
			before: v3synced,
			after:  v3resynced,
			exact:  true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/append-only", rules.Error, entryLine(t, a, 3))
			},
		},
		{
			name:   "awp sync-replace is a warning when configured",
			before: v3synced,
			after:  v3resynced,
			cfg:    syncWarning,
			exact:  true,
			wants: func(t *testing.T, a string) []want {
				return at("smp/append-only", rules.Warning, entryLine(t, a, 3))
			},
		},

		// Changes that must pass.
		{name: "awp sync appends a synced entry", before: v3(t), after: v3synced, exact: true, wants: none},
		{name: "BOM and CRLF copy of v1, as a change", before: v1(t), after: bomCRLF, exact: true, wants: none},
		{name: "BOM and CRLF copy of v1, tree mode", tree: true, after: bomCRLF, exact: true, wants: none},
		{name: "BOM and CRLF v1 to v2", before: bomCRLF, after: v2(t), exact: true, wants: none},
		{
			name:   "requoting and folding old entries",
			before: v3(t),
			after: replace(t, replace(t, replace(t, v3(t),
				"message: Added summary", `message: "Added summary"`),
				"    message: >-\n      Added benchmark comparison table with needle-in-a-haystack results across\n      five providers: long message to check folding\n",
				"    message: 'Added benchmark comparison table with needle-in-a-haystack results across five providers: long message to check folding'\n"),
				"created: '2026-11-22T10:09:02.571Z'", `created: "2026-11-22T10:09:02.571Z"`),
			exact: true,
			wants: none,
		},
		{name: "a note without frontmatter outside any AWP workspace is not an artifact", path: "artifacts/notes.md", tree: true, after: "# Notes\n\nNo frontmatter here.\n", exact: true, wants: none},
		{name: "a .md.bak backup is not an artifact", path: "artifacts/x.md.bak", tree: true, after: "not: [an artifact\n", exact: true, wants: none},
		{name: "deleting a .md.bak backup", path: "artifacts/x.md.bak", before: v3(t), exact: true, wants: none},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.path
			if p == "" {
				p = art
			}
			before, after := rulestest.Snapshot{}, rulestest.Snapshot{}
			if c.before != "" {
				before[p] = c.before
			}
			if c.after != "" {
				after[p] = c.after
			}
			var u changes.Unit
			if c.tree {
				u = rulestest.Tree(after)
			} else {
				u = rulestest.Staged(before, after)
			}
			if len(u.Changes) != 1 {
				t.Fatalf("unit has %d changes, want 1", len(u.Changes))
			}
			if c.inAWP {
				u.Declared.Add(workspace.Declaration{Workspace: workspace.Workspace{Kind: workspace.AWP}})
			}
			got := check(t, c.cfg, u)
			for _, f := range got {
				if f.Path != p {
					t.Errorf("finding on %s, want %s", f.Path, p)
				}
			}
			expect(t, got, c.exact, c.wants(t, c.after)...)
		})
	}
}

// TestRulesAreDocumented checks every rule's ID, severity and doc.
func TestRulesAreDocumented(t *testing.T) {
	ids := map[string]rules.Severity{
		"smp/parse": rules.Error, "smp/schema": rules.Error, "smp/id": rules.Error,
		"smp/append-only": rules.Error, "smp/version": rules.Error, "smp/provenance": rules.Error,
		"smp/unrecorded-change": rules.Error, "smp/merge": rules.Warning, "smp/attribution": rules.Warning,
		"smp/undeclared": rules.Error,
	}
	rs := Rules()
	if len(rs) != len(ids) {
		t.Errorf("%d rules, want %d", len(rs), len(ids))
	}
	for _, r := range rs {
		sev, ok := ids[r.ID]
		if !ok {
			t.Errorf("unexpected rule %s", r.ID)
			continue
		}
		if r.Severity != sev || r.Doc == "" || r.Run == nil {
			t.Errorf("rule %s: severity %s, doc %q", r.ID, r.Severity, r.Doc)
		}
	}
}

// TestMergeCommit checks a merge commit's artifact against both parents
// and the merge base.
func TestMergeCommit(t *testing.T) {
	h, e, tail := splitProvenance(t, v3(t))
	ours := v3(t)
	theirsEntry := "  - agent: '" + didA + "'\n    action: updated\n    timestamp: '2026-11-22T10:09:03.500Z'\n    message: Their change\n"
	theirs := joinProvenance(h, []string{e[0], e[1], theirsEntry}, tail)
	v4h := replace(t, h, "version: 3", "version: 4")
	mk := func(result string) changes.Unit {
		u := commit(strings.Repeat("m", 40), rulestest.Snapshot{art: ours}, rulestest.Snapshot{art: result})
		u.Changes[0].Merge = &changes.Merge{Base: rulestest.Blob(v2(t)), Parents: []*changes.Blob{rulestest.Blob(ours), rulestest.Blob(theirs)}}
		return u
	}
	merged := joinProvenance(v4h, []string{e[0], e[1], e[2], theirsEntry}, tail)
	expect(t, check(t, nil, mk(merged)), true)

	// A merge that drops the other parent's entry loses provenance.
	lost := joinProvenance(v4h, e, tail)
	expect(t, check(t, nil, mk(lost)), false, want{"smp/append-only", rules.Error, keyLine(t, lost, "provenance") + 1})

	// A merge whose version is below both parents' is one problem.
	low := joinProvenance(replace(t, h, "version: 3", "version: 2"), []string{e[0], e[1], e[2], theirsEntry}, tail)
	expect(t, check(t, nil, mk(low)), true, want{"smp/version", rules.Error, keyLine(t, low, "version")})
}

// TestProvenanceNamesTheRightEntry: when the added entries are not
// contiguous (an old entry replaced by one of another action, and a new
// entry appended), a finding about the appended entry must name it.
func TestProvenanceNamesTheRightEntry(t *testing.T) {
	h, e, tail := splitProvenance(t, v3(t))
	changed := replace(t, e[1], "action: updated", "action: synced")
	late := "  - agent: '" + didA + "'\n    action: created\n    timestamp: '2026-11-22T10:30:00.000Z'\n"
	cur := joinProvenance(h, []string{e[0], changed, e[2], late}, tail)
	got := check(t, nil, rulestest.Staged(rulestest.Snapshot{art: v3(t)}, rulestest.Snapshot{art: cur}))
	var prov []rules.Finding
	for _, f := range got {
		if f.Rule == "smp/provenance" {
			prov = append(prov, f)
		}
	}
	if len(prov) != 1 || prov[0].Line != entryLine(t, cur, 3) || !strings.Contains(prov[0].Text(), "provenance entry 4 ") {
		t.Errorf("the created entry appended as entry 4 (line %d) is not the one finding of smp/provenance:%s", entryLine(t, cur, 3), dump(prov))
	}
}
