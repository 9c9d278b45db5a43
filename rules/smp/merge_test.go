package smp

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/rulestest"
)

// mergeSides builds the two sides of a merge of the llm-context-research
// artifact from v2 (the merge base): ours is awp's v3 (a benchmark table
// and an updated entry), theirs appends a note and an entry of its own.
func mergeSides(t *testing.T) (base, ours, theirs, theirEntry string) {
	t.Helper()
	base, ours = v2(t), v3(t)
	theirEntry = "  - agent: '" + didA + "'\n    action: updated\n    timestamp: '2026-11-22T10:09:03.500Z'\n    message: Their note\n"
	theirs = replace(t, edgeAppend(t, v2(t), theirEntry), "version: 2", "version: 3") + "\n## Notes\n\nTheir note.\n"
	return base, ours, theirs, theirEntry
}

// cleanMerge is the merge of both sides: every entry, version 4, both
// bodies.
func cleanMerge(t *testing.T) string {
	_, ours, _, theirEntry := mergeSides(t)
	return replace(t, edgeAppend(t, ours, theirEntry), "version: 3", "version: 4") + "\n## Notes\n\nTheir note.\n"
}

// mergeUnit is the merge commit whose result for the artifact is result.
func mergeUnit(t *testing.T, result string) changes.Unit {
	base, ours, theirs, _ := mergeSides(t)
	u := commit(strings.Repeat("e", 40), rulestest.Snapshot{art: ours}, rulestest.Snapshot{art: result})
	u.Commit.Parents = []string{strings.Repeat("1", 40), strings.Repeat("2", 40)}
	u.Changes[0].Merge = &changes.Merge{Base: rulestest.Blob(base), Parents: []*changes.Blob{rulestest.Blob(ours), rulestest.Blob(theirs)}}
	return u
}

// TestSmpEvilMerges: what only a merge introduces is judged like any other
// change. Each case fails on a merge that copies both sides faithfully
// plus one edit of its own.
func TestSmpEvilMerges(t *testing.T) {
	clean := cleanMerge(t)
	_, _, theirs, _ := mergeSides(t)
	ownEntry := "  - agent: '" + didA + "'\n    action: updated\n    timestamp: '2026-11-22T10:09:05.000Z'\n    message: Resolved the merge\n"
	cases := []struct {
		name   string
		result string
		want   []finding
	}{
		{"both sides kept", clean, nil},
		{"both sides kept, their body first", replace(t, clean, "\n## Benchmarks\n\n| Model | Window |\n|---|---|\n| A | 128k |\n\n## Notes\n\nTheir note.\n", "\n## Notes\n\nTheir note.\n\n## Benchmarks\n\n| Model | Window |\n|---|---|\n| A | 128k |\n"), nil},
		{"our body wholesale", replace(t, clean, "\n\n## Notes\n\nTheir note.\n", "\n"), nil},
		{"a line in the body that no side wrote", clean + "\nInjected by the merge.\n",
			[]finding{{"smp/unrecorded-change", rules.Error, "this merge writes the body that no parent holds"}}},
		{"a shared line rewritten", replace(t, clean, "| A | 128k |", "| A | 2M |"),
			[]finding{{"smp/unrecorded-change", rules.Error, "the body"}}},
		{"the summary deleted", replace(t, clean, "Context windows grew from 4k to 1M tokens between 2023 and 2025.\n", ""),
			[]finding{{"smp/unrecorded-change", rules.Error, "the body"}}},
		{"the title changed", replace(t, clean, "title: LLM Context Window Research", "title: Something Else"),
			[]finding{{"smp/unrecorded-change", rules.Error, "this merge writes title that no parent holds"}}},
		{"a tag no side has", replace(t, clean, "  - context-windows\n", "  - context-windows\n  - injected\n"),
			[]finding{{"smp/unrecorded-change", rules.Error, "tags"}}},
		{"the merge records its own edit", replace(t, edgeAppend(t, clean, ownEntry), "version: 4", "version: 5") + "\nResolved by hand.\n", nil},
		{"the merge records its edit without a raise", edgeAppend(t, clean, ownEntry) + "\nResolved by hand.\n",
			[]finding{{"smp/version", rules.Error, "version 4 of the merge does not follow from its parents: the first parent has version 3 and the merge brings it 2 updated/merged provenance entries; each recorded change raises the version by exactly one: set version to 5"}}},
		{"version 99", replace(t, clean, "version: 4", "version: 99"),
			[]finding{{"smp/version", rules.Error, "set version to 4"}}},
		{"version 99.0", replace(t, clean, "version: 4", "version: 99.0"),
			[]finding{{"smp/version", rules.Error, "version 99.0 of the merge"}}},
		{"version 4.0", replace(t, clean, "version: 4", "version: 4.0"), nil},
		{"version 3: below the sum of both sides", replace(t, clean, "version: 4", "version: 3"),
			[]finding{{"smp/version", rules.Error, "set version to 4"}}},
		{"theirs taken wholesale, our entry dropped", theirs,
			[]finding{{"smp/append-only", rules.Error, "the merge lost or rewrote provenance entry 3 (updated by did:key:z6MkvmWSVtpUTrKQ…) of parent 1"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			edgeMatch(t, edgeCheck(t, config.Default(), mergeUnit(t, c.result)), c.want)
		})
	}
}

// TestSmpTheSameEditInAnOrdinaryCommit: the edits an evil merge makes are
// refused in an ordinary commit too.
func TestSmpTheSameEditInAnOrdinaryCommit(t *testing.T) {
	clean := cleanMerge(t)
	for name, after := range map[string]string{
		"body":    clean + "\nInjected.\n",
		"title":   replace(t, clean, "title: LLM Context Window Research", "title: Something Else"),
		"version": replace(t, clean, "version: 4", "version: 99.0"),
	} {
		got := edgeCheck(t, config.Default(), commit(strings.Repeat("c", 40), rulestest.Snapshot{art: clean}, rulestest.Snapshot{art: after}))
		if len(got) != 1 || got[0].Severity != rules.Error {
			t.Errorf("%s: %+v", name, got)
		}
	}
}

// TestSmpMergeOfTags: authors and tags are unions in an SMP merge.
func TestSmpMergeOfTags(t *testing.T) {
	base, ours, theirs, theirEntry := mergeSides(t)
	ours = replace(t, ours, "  - context-windows\n", "  - context-windows\n  - ours\n")
	theirs = replace(t, theirs, "  - context-windows\n", "  - theirs\n")
	result := func(tags string) string {
		s := replace(t, edgeAppend(t, ours, theirEntry), "version: 3", "version: 4") + "\n## Notes\n\nTheir note.\n"
		return replace(t, s, "  - ai-research\n  - context-windows\n  - ours\n", tags)
	}
	cases := []struct {
		tags string
		ok   bool
	}{
		{"  - ai-research\n  - context-windows\n  - ours\n  - theirs\n", true},
		{"  - theirs\n  - ours\n  - context-windows\n  - ai-research\n", true},
		{"  - ai-research\n  - context-windows\n  - ours\n", true},
		{"  - ai-research\n  - theirs\n", true},
		{"  - ai-research\n  - ours\n  - theirs\n", false},
		{"  - ai-research\n  - context-windows\n  - ours\n  - theirs\n  - new\n", false},
	}
	for _, c := range cases {
		u := commit(strings.Repeat("e", 40), rulestest.Snapshot{art: ours}, rulestest.Snapshot{art: result(c.tags)})
		u.Changes[0].Merge = &changes.Merge{Base: rulestest.Blob(base), Parents: []*changes.Blob{rulestest.Blob(ours), rulestest.Blob(theirs)}}
		got := edgeCheck(t, config.Default(), u)
		if (len(got) == 0) != c.ok {
			t.Errorf("tags %q: %+v", c.tags, got)
		}
	}
}

// TestSmpArtifactNewInAMerge: an artifact only the second parent has is
// taken as it is there; anything else the merge writes into it is new.
func TestSmpArtifactNewInAMerge(t *testing.T) {
	_, _, theirs, _ := mergeSides(t)
	for _, c := range []struct {
		result string
		want   []finding
	}{
		{theirs, nil},
		{theirs + "\nInjected.\n", []finding{{"smp/unrecorded-change", rules.Error, "the body"}}},
	} {
		u := commit(strings.Repeat("e", 40), nil, rulestest.Snapshot{art: c.result})
		u.Changes[0].Merge = &changes.Merge{Parents: []*changes.Blob{nil, rulestest.Blob(theirs)}}
		edgeMatch(t, edgeCheck(t, config.Default(), u), c.want)
	}
}
