package main

import (
	"strings"
	"testing"
)

const artifactPath = "artifacts/llm-context-research.md"

// smpFixture reads one of the awp-written versions in testdata/smp.
func smpFixture(t *testing.T, name string) string {
	t.Helper()
	r := repoAt(t, "../../testdata/smp")
	return r.Read(name)
}

// smpRepo commits v1 to v3 of the real awp-written artifact, one commit
// each, and returns the repository and the commit before the artifact.
func smpRepo(t *testing.T) (*testRepo, string) {
	r := newTestRepo(t)
	r.Write("README.md", "x\n")
	base := r.Commit("start")
	for _, v := range []string{"v1", "v2", "v3"} {
		r.Write(artifactPath, smpFixture(t, "llm-context-research."+v+".md"))
		r.Commit("artifact " + v)
	}
	return r, base
}

func TestRealAwpHistoryPasses(t *testing.T) {
	r, base := smpRepo(t)
	r.Write(artifactPath, smpFixture(t, "llm-context-research.v4-merged.md"))
	r.Write("artifacts/quick-note.md", smpFixture(t, "quick-note.anonymous.md"))
	r.Commit("merge")
	code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	rep := decodeReport(t, out)
	if rep.Summary.Commits != 4 || rep.Summary.Errors != 0 || rep.Summary.Warnings != 1 || rep.Findings[0].Rule != "smp/merge" {
		t.Fatalf("want only the smp/merge warning for the missing merge source:\n%s", out)
	}
	if code, out, _ := r.check(nil, "check", "--all"); code != exitOK {
		t.Fatalf("--all: exit %d\n%s", code, out)
	}
}

func TestArtifactMutationsFail(t *testing.T) {
	v3 := smpFixture(t, "llm-context-research.v3.md")
	v4 := smpFixture(t, "llm-context-research.v4-merged.md")
	updated := strings.Replace(v3, "version: 3", "version: 4", 1)
	appendEntry := func(s, entry string) string {
		return strings.Replace(s, "\n---\n\n# LLM", "\n"+entry+"---\n\n# LLM", 1)
	}
	newEntry := "  - agent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'\n    action: updated\n    timestamp: '2026-11-22T10:09:09.000Z'\n"
	cases := []struct {
		name, content, rule string
	}{
		{"edit an old entry", strings.Replace(v3, "message: Added summary", "message: Rewritten", 1), "smp/append-only"},
		{"delete an entry", strings.Replace(v3, "    message: Added summary\n    confidence: 0.75\n", "", 1), "smp/append-only"},
		{"change created", strings.Replace(v3, "created: '2026-11-22T10:09:02.571Z'", "created: '2025-01-01T00:00:00.000Z'", 1), "smp/append-only"},
		{"version down", strings.Replace(v3, "version: 3", "version: 2", 1), "smp/version"},
		{"version not raised", appendEntry(v3, newEntry), "smp/version"},
		{"version raised twice", appendEntry(strings.Replace(v3, "version: 3", "version: 5", 1), newEntry), "smp/version"},
		{"second created entry", appendEntry(updated, strings.Replace(newEntry, "updated", "created", 1)), "smp/provenance"},
		{"earlier timestamp", appendEntry(updated, strings.Replace(newEntry, "10:09:09", "10:00:00", 1)), "smp/provenance"},
		{"body changed without an entry", v3 + "\nAn unrecorded paragraph.\n", "smp/unrecorded-change"},
		{"id mismatch", strings.Replace(v3, "id: 'artifact:llm-context-research'", "id: 'artifact:other'", 1), "smp/id"},
		{"confidence out of range", strings.Replace(v3, "confidence: 0.75\ntags", "confidence: 1.5\ntags", 1), "smp/schema"},
		{"missing frontmatter", "# Just markdown\n", "smp/undeclared"}, // the artifact declared itself (no workspace here)
		{"unclosed frontmatter", strings.Replace(v3, "\n---\n\n# LLM", "\n\n# LLM", 1), "smp/parse"},
		{"duplicate key", strings.Replace(v3, "title: LLM", "title: A\ntitle: LLM", 1), "smp/parse"},
		{"reordered entries", reorder(v3), "smp/append-only"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, _ := smpRepo(t)
			r.Write(artifactPath, tc.content)
			r.Git("add", "-A")
			code, out, errOut := r.check(nil, "check", "--format", "json")
			if code != exitFindings || !contains(rulesOf(decodeReport(t, out)), tc.rule) {
				t.Fatalf("exit %d, want %s\n%s%s", code, tc.rule, out, errOut)
			}
		})
	}
	t.Run("deleted artifact", func(t *testing.T) {
		r, _ := smpRepo(t)
		r.Git("rm", "-q", artifactPath)
		code, out, _ := r.check(nil, "check", "--format", "json")
		if code != exitFindings || !contains(rulesOf(decodeReport(t, out)), "smp/append-only") {
			t.Fatalf("exit %d\n%s", code, out)
		}
	})
	t.Run("author removed", func(t *testing.T) {
		r, _ := smpRepo(t)
		r.Write(artifactPath, v4)
		r.Commit("merge")
		r.Write(artifactPath, strings.Replace(v4, "  - 'did:key:z6Mko64x75DDgiVmhP2DoegyEgiq5tVejzcqzYB8tJt4VR2q'\n", "", 1))
		r.Git("add", "-A")
		code, out, _ := r.check(nil, "check", "--format", "json")
		if code != exitFindings || !contains(rulesOf(decodeReport(t, out)), "smp/provenance") {
			t.Fatalf("exit %d\n%s", code, out)
		}
	})
	t.Run("merged entry without separator", func(t *testing.T) {
		r, _ := smpRepo(t)
		i := strings.Index(v4, "\n---\n*Merged")
		r.Write(artifactPath, v4[:i]+"\n")
		r.Git("add", "-A")
		_, out, _ := r.check(nil, "check", "--format", "json")
		if !strings.Contains(out, `"rule": "smp/merge"`) || !strings.Contains(out, "merge separators") {
			t.Fatalf("no smp/merge warning:\n%s", out)
		}
	})
}

// reorder swaps the second and third provenance entries of v3.
func reorder(v3 string) string {
	second := "  - agent: 'did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW'\n    action: updated\n    timestamp: '2026-11-22T10:09:02.910Z'\n    message: Added summary\n    confidence: 0.75\n"
	i := strings.Index(v3, second)
	j := strings.Index(v3, "---\n\n# LLM")
	third := v3[i+len(second) : j]
	return v3[:i] + third + second + v3[j:]
}

func TestArtifactRequotingAndBOMPass(t *testing.T) {
	r, _ := smpRepo(t)
	v3 := smpFixture(t, "llm-context-research.v3.md")
	requoted := strings.Replace(v3, "    message: Added summary\n", "    message: \"Added summary\"\n", 1)
	requoted = strings.Replace(requoted, "    message: >-\n      Added benchmark comparison table with needle-in-a-haystack results across\n      five providers: long message to check folding\n",
		"    message: 'Added benchmark comparison table with needle-in-a-haystack results across five providers: long message to check folding'\n", 1)
	if requoted == v3 {
		t.Fatal("the fixture did not change")
	}
	r.Write(artifactPath, "\xef\xbb\xbf"+strings.ReplaceAll(requoted, "\n", "\r\n"))
	r.Git("add", "-A")
	if code, out, _ := r.check(nil, "check"); code != exitOK {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestAwpSyncReplace(t *testing.T) {
	synced := func(ts string) string {
		return "  - agent: unknown\n    action: synced\n    timestamp: '" + ts + "'\n    syncSource: remote\n"
	}
	r, _ := smpRepo(t)
	v3 := smpFixture(t, "llm-context-research.v3.md")
	withSync := func(entry string) string {
		return strings.Replace(v3, "\n---\n\n# LLM", "\n"+entry+"---\n\n# LLM", 1)
	}
	r.Write(artifactPath, withSync(synced("2026-11-22T10:10:00.000Z")))
	r.Commit("sync import")
	r.Write(artifactPath, withSync(synced("2026-11-22T10:11:00.000Z")))
	r.Git("add", "-A")
	code, out, _ := r.check(nil, "check", "--format", "json")
	if code != exitFindings || !strings.Contains(out, "awp sync pull") {
		t.Fatalf("sync replace by default: exit %d\n%s", code, out)
	}
	r.Write(".small-hook.yml", "smp:\n  sync-replace: warning\n")
	commitPolicy(r, ".small-hook.yml")
	code, out, _ = r.check(nil, "check", "--format", "json")
	if code != exitOK || !strings.Contains(out, `"severity": "warning"`) {
		t.Fatalf("sync replace with the setting: exit %d\n%s", code, out)
	}
}
