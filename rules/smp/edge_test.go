package smp

import (
	"errors"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
	"github.com/small-hook/small-hook/workspace"
)

// The tests in this file pin what the messages say and the cases at the
// edges: links at artifact paths, edits of history that must not also be
// counted as new entries, merge commits, and a snapshot that fails.

const edgeDID = "did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW"

// edgeEntry is provenance entry 2 of the v3 fixture, as awp wrote it.
const edgeEntry = "  - agent: '" + edgeDID + "'\n    action: updated\n    timestamp: '2026-11-22T10:09:02.910Z'\n    message: Added summary\n    confidence: 0.75\n"

// edgeLast is provenance entry 3 of the v3 fixture.
const edgeLast = "  - agent: '" + edgeDID + "'\n    action: updated\n    timestamp: '2026-11-22T10:09:03.236Z'\n    message: >-\n      Added benchmark comparison table with needle-in-a-haystack results across\n      five providers: long message to check folding\n"

// edgeSub replaces the only occurrence of old in s and fails the test when
// old does not occur exactly once, so that no mutation is a no-op.
func edgeSub(t *testing.T, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 {
		t.Fatalf("%q occurs %d times, want 1", old, n)
	}
	return strings.Replace(s, old, new, 1)
}

// edgeAppend adds provenance entries after the last one of s.
func edgeAppend(t *testing.T, s string, entries ...string) string {
	t.Helper()
	return edgeSub(t, s, "\n---\n\n# LLM", "\n"+strings.TrimSuffix(strings.Join(entries, ""), "\n")+"\n---\n\n# LLM")
}

func edgeUpdated(ts, message string) string {
	return "  - agent: '" + edgeDID + "'\n    action: updated\n    timestamp: '" + ts + "'\n    message: " + message + "\n"
}

func edgeCheck(t *testing.T, cfg *config.Config, u changes.Unit) []rules.Finding {
	t.Helper()
	got, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: Rules(), Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// finding is the part of a finding a case pins: its rule, severity and a
// piece of its message.
type finding struct {
	rule     string
	severity rules.Severity
	says     string
}

func edgeMatch(t *testing.T, got []rules.Finding, want []finding) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Rule != w.rule || g.Severity != w.severity || !strings.Contains(g.Text(), w.says) {
			t.Errorf("finding %d: got %s %s %q, want %s %s saying %q", i, g.Rule, g.Severity, g.Text(), w.rule, w.severity, w.says)
		}
	}
}

func TestHistoryMessages(t *testing.T) {
	v3 := fixture(t, "llm-context-research.v3.md")
	synced := func(ts string) string {
		return "  - agent: unknown\n    action: synced\n    timestamp: '" + ts + "'\n    syncSource: 'remote:team'\n"
	}
	v3synced := edgeAppend(t, v3, synced("2026-11-22T10:10:00.000Z"))
	v3resynced := edgeAppend(t, v3, synced("2026-11-22T10:11:00.000Z"))
	bumped := func(s string) string { return edgeSub(t, s, "version: 3", "version: 4") }
	cases := []struct {
		name        string
		before, cur string
		want        []finding
	}{
		{
			name:   "an old entry's message edited is one append-only error, not also a new entry",
			before: v3,
			cur:    edgeSub(t, v3, "message: Added summary", "message: Added a summary"),
			want:   []finding{{"smp/append-only", rules.Error, "provenance entry 2 (updated by did:key:z6MkvmWSVtpUTrKQ…) of the previous version was changed: message differs: restore the entry and record the change as a new `updated` entry"}},
		},
		{
			name:   "two fields of an old entry edited",
			before: v3,
			cur:    edgeSub(t, v3, "message: Added summary\n    confidence: 0.75", "message: Added a summary\n    confidence: 0.8"),
			want:   []finding{{"smp/append-only", rules.Error, "was changed: confidence, message differ: restore the entry"}},
		},
		{
			name:   "an entry removed while a new one is appended",
			before: v3,
			cur:    bumped(edgeAppend(t, edgeSub(t, v3, edgeEntry, ""), edgeUpdated("2026-11-22T10:10:00.000Z", "Rewrote the table"))),
			want:   []finding{{"smp/append-only", rules.Error, "provenance entry 2 (updated by did:key:z6MkvmWSVtpUTrKQ…) of the previous version was removed: restore the entry"}},
		},
		{
			name:   "the last entry removed",
			before: v3,
			cur:    edgeSub(t, v3, edgeLast, ""),
			want:   []finding{{"smp/append-only", rules.Error, "provenance entry 3 (updated by did:key:z6MkvmWSVtpUTrKQ…) of the previous version was removed: restore the entry"}},
		},
		{
			name:   "two entries swapped",
			before: v3,
			cur:    edgeSub(t, v3, edgeEntry+edgeLast, edgeLast+edgeEntry),
			want:   []finding{{"smp/append-only", rules.Error, "provenance entry 2 (updated by did:key:z6MkvmWSVtpUTrKQ…) of the previous version was moved: the entries were reordered"}},
		},
		{
			name:   "an entry replaced by one of another action",
			before: v3,
			cur:    edgeSub(t, v3, "    action: updated\n    timestamp: '2026-11-22T10:09:02.910Z'", "    action: synced\n    timestamp: '2026-11-22T10:09:02.910Z'"),
			want:   []finding{{"smp/append-only", rules.Error, "was replaced by a different entry"}},
		},
		{
			name:   "awp's fast-forward sync replacing a trailing synced entry",
			before: v3synced,
			cur:    v3resynced,
			want:   []finding{{"smp/append-only", rules.Error, "provenance entry 4 (synced by unknown) of the previous version, a trailing `synced` entry, was replaced, as `awp sync pull` does on a fast-forward"}},
		},
		{
			name:   "an unquoted created date is named for what it is, as SMALL names it",
			before: "",
			cur:    edgeSub(t, v3, "created: '2026-11-22T10:09:02.571Z'", "created: 2026-11-25"),
			want:   []finding{{"smp/schema", rules.Error, "/created: must be a string, not an unquoted YAML timestamp: quote it"}},
		},
		{
			name:   "a missing id is reported once, by the schema",
			before: "",
			cur:    edgeSub(t, v3, "id: 'artifact:llm-context-research'\n", ""),
			want:   []finding{{"smp/schema", rules.Error, `is missing the required key "id"`}},
		},
		{
			name:   "a merged entry without its separator",
			before: v3,
			cur:    edgeSub(t, fixture(t, "llm-context-research.v4-merged.md"), "*Merged from artifact:transformer-analysis (version 2) on 2026-11-22T10:09:04.734Z*\n", ""),
			want:   []finding{{"smp/merge", rules.Warning, "1 new `merged` provenance entries but only 0 new merge separators in the body"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := rulestest.Snapshot{}
			if c.before != "" {
				before[artifactPath] = c.before
			}
			u := rulestest.Staged(before, rulestest.Snapshot{artifactPath: c.cur})
			edgeMatch(t, edgeCheck(t, config.Default(), u), c.want)
		})
	}
}

func TestLinksAtArtifactPaths(t *testing.T) {
	v1 := fixture(t, "llm-context-research.v1.md")
	a := edgeSub(t, v1, "id: 'artifact:llm-context-research'", "id: 'artifact:a'")
	cases := []struct {
		name string
		kind changes.Kind
		data string
		says string
	}{
		// The link's target text is a valid artifact, byte for byte the
		// content of artifacts/a.md: same blob hash, still not a file.
		{"symlink whose target reads like an artifact", changes.KindSymlink, a, "is a symbolic link"},
		{"submodule", changes.KindSubmodule, "", "is a submodule"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := rulestest.Tree(rulestest.Snapshot{"artifacts/a.md": a, "artifacts/b.md": c.data})
			u.Declared.Add(workspace.Declaration{Workspace: workspace.Workspace{Kind: workspace.AWP}}) // in an AWP workspace
			for i := range u.Changes {
				if u.Changes[i].Path == "artifacts/b.md" {
					u.Changes[i].New.Kind = c.kind
				}
			}
			got := edgeCheck(t, config.Default(), u)
			edgeMatch(t, got, []finding{{"smp/parse", rules.Error, "artifacts/b.md: " + c.says}})
			if got[0].Path != "artifacts/b.md" || got[0].Line != 0 {
				t.Errorf("finding at %s:%d, want artifacts/b.md:0", got[0].Path, got[0].Line)
			}
		})
	}
}

func TestMergeCommitKeepsCreatedAndAuthors(t *testing.T) {
	v2 := fixture(t, "llm-context-research.v2.md")
	ours := fixture(t, "llm-context-research.v3.md")
	const otherDID = "did:key:z6Mko64x75DDgiVmhP2DoegyEgiq5tVejzcqzYB8tJt4VR2q"
	otherAuthor := "  - '" + edgeDID + "'\n  - '" + otherDID + "'\n"
	theirEntry := "  - agent: '" + otherDID + "'\n    action: updated\n    timestamp: '2026-11-22T10:09:03.500Z'\n    message: Their change\n"
	theirs := edgeSub(t, edgeAppend(t, edgeSub(t, v2, "  - '"+edgeDID+"'\n", otherAuthor), theirEntry), "version: 2", "version: 3")
	merged := edgeSub(t, edgeSub(t, edgeAppend(t, ours, theirEntry), "  - '"+edgeDID+"'\n", otherAuthor), "version: 3", "version: 4")
	merge := func(result string) changes.Unit {
		u := rulestest.Staged(rulestest.Snapshot{artifactPath: ours}, rulestest.Snapshot{artifactPath: result})
		u.Mode = changes.ModeRange
		u.Commit = &changes.Commit{Hash: strings.Repeat("e", 40), Message: "Merge branch 'theirs'\n"}
		u.Changes[0].Merge = &changes.Merge{Base: rulestest.Blob(v2), Parents: []*changes.Blob{rulestest.Blob(ours), rulestest.Blob(theirs)}}
		return u
	}
	cases := []struct {
		name   string
		result string
		want   []finding
	}{
		{"both sides kept", merged, nil},
		{"the other side's author dropped", edgeSub(t, merged, otherAuthor, "  - '"+edgeDID+"'\n"), []finding{{"smp/provenance", rules.Error, "authors lost " + otherDID}}},
		{"created changed in the merge", edgeSub(t, merged, "created: '2026-11-22T10:09:02.571Z'", "created: '2026-11-22T11:00:00.000Z'"), []finding{{"smp/append-only", rules.Error, "created changed from 2026-11-22T10:09:02.571Z to 2026-11-22T11:00:00.000Z"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			edgeMatch(t, edgeCheck(t, config.Default(), merge(c.result)), c.want)
		})
	}
}

// failingSnapshot is a new state that cannot be read.
type failingSnapshot struct{}

func (failingSnapshot) List(string) ([]string, error) {
	return nil, errors.New("object store unreadable")
}

func (failingSnapshot) Read(string) (*changes.Blob, error) {
	return nil, errors.New("object store unreadable")
}

func TestMergeSourceUnreadableIsAnError(t *testing.T) {
	u := rulestest.Staged(
		rulestest.Snapshot{artifactPath: fixture(t, "llm-context-research.v3.md")},
		rulestest.Snapshot{artifactPath: fixture(t, "llm-context-research.v4-merged.md")})
	u.Files = failingSnapshot{}
	_, err := rules.Check([]changes.Unit{u}, rules.Options{Rules: Rules(), Config: config.Default()})
	if err == nil || !strings.Contains(err.Error(), "artifacts/transformer-analysis.md") || !strings.Contains(err.Error(), "object store unreadable") {
		t.Fatalf("got %v, want the read error of the merge source", err)
	}
}
