package main

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// hours is day0 plus n hours.
func hours(n int) time.Time { return day0.Add(time.Duration(n) * time.Hour) }

// ledgerWorkspace is a repository whose first commit, at hours(2), adds a
// workspace with one entry of hours(1).
func ledgerWorkspace(t *testing.T) *testRepo {
	t.Helper()
	r := newTestRepo(t)
	r.Write(progressPath, progressHeader+ledgerEntry("meta/init", hours(1)))
	r.CommitAt("workspace", hours(2))
	return r
}

// expectLedger runs log --verify and compares its exit code and findings
// ("severity rule" each, in order) with what is wanted.
func expectLedger(t *testing.T, r *testRepo, what string, code int, want ...string) ledgerOut {
	t.Helper()
	got, l, errOut := r.log("--verify")
	if got != code || !slices.Equal(l.rules(), want) {
		t.Errorf("%s: exit %d, findings %v; want exit %d, %v\n%+v%s", what, got, l.rules(), code, want, l.Findings, errOut)
	}
	return l
}

func TestLogFutureEntry(t *testing.T) {
	r := ledgerWorkspace(t)
	r.appendTo(progressPath, ledgerEntry("on-time", hours(3).Add(4*time.Minute)))
	r.CommitAt("an entry 4 minutes ahead of the commit's clock", hours(3))
	expectLedger(t, r, "within the clock skew", exitOK)
	r.appendTo(progressPath, ledgerEntry("ahead", hours(6)))
	future := r.CommitAt("an entry two hours ahead", hours(4))
	l := expectLedger(t, r, "two hours ahead", exitFindings, "error ledger/future-entry")
	f := l.Findings[0]
	if f.Commit != future || f.Line != l.file(t, progressPath)[2].Line || !strings.Contains(f.Message, "progress entry 3 (task_id ahead)") || !strings.Contains(f.Message, "2h after commit "+future[:12]) {
		t.Errorf("finding %+v", f)
	}
	if code, _, _ := r.log(); code != exitOK {
		t.Errorf("without --verify, log exits %d", code)
	}
	r.Write(".small-hook.yml", "ledger:\n  clock-skew: 3h\n")
	r.CommitAt("a clock skew of three hours", hours(5))
	expectLedger(t, r, "clock-skew: 3h", exitOK)
}

func TestLogBackfilled(t *testing.T) {
	r := newTestRepo(t)
	r.Write(progressPath, progressHeader+ledgerEntry("imported", hours(1)))
	r.CommitAt("a workspace committed ten days after its entry", hours(240))
	expectLedger(t, r, "entries that arrive with their file", exitOK)
	r.appendTo(progressPath, ledgerEntry("six-days", hours(241)))
	r.CommitAt("six days late", hours(241+6*24))
	expectLedger(t, r, "six days late", exitOK)
	r.appendTo(progressPath, ledgerEntry("eight-days", hours(400))+ledgerEntry("nine-days", hours(401)))
	late := r.CommitAt("eight and nine days late", hours(401+8*24))
	l := expectLedger(t, r, "eight days late", exitOK, "warning ledger/backfilled")
	if f := l.Findings[0]; f.Commit != late || !strings.Contains(f.Message, "2 progress entries (3 to 4) 8d to 8d1h after their timestamps") || f.Line != l.file(t, progressPath)[2].Line {
		t.Errorf("finding %+v", f)
	}
	r.Write(".small-hook.yml", "ledger:\n  backfill: 10d\n")
	r.CommitAt("backfill allowed for ten days", hours(600))
	expectLedger(t, r, "backfill: 10d", exitOK)
}

func TestLogEvidenceCommit(t *testing.T) {
	r := ledgerWorkspace(t)
	r.Write("main.go", "package main\n")
	work := r.CommitAt("the work", hours(3))
	r.appendTo(progressPath, ledgerEntry("done", hours(4), "      commit: "+work[:7]+"\n"))
	r.CommitAt("progress naming the work", hours(4))
	expectLedger(t, r, "an ancestor", exitOK)

	r.Git("checkout", "-q", "-b", "side")
	r.Write("side.go", "package main\n")
	side := r.CommitAt("work on a branch", hours(5))
	r.Git("checkout", "-q", "main")
	r.appendTo(progressPath, ledgerEntry("early", hours(6), "      verification:\n        commit_sha: "+side+"\n"))
	early := r.CommitAt("progress naming a commit of an unmerged branch", hours(6))
	l := expectLedger(t, r, "an unmerged commit", exitFindings, "error ledger/evidence-commit")
	if f := l.Findings[0]; f.Commit != early || !strings.Contains(f.Message, "no commit of this history starts with it") {
		t.Errorf("finding %+v", f)
	}
	r.Git("merge", "-q", "--no-edit", "side")
	l = expectLedger(t, r, "merged after the entry named it", exitFindings, "error ledger/evidence-commit")
	if f := l.Findings[0]; !strings.Contains(f.Message, "that commit ("+side[:12]+") is not an ancestor of it") {
		t.Errorf("finding %+v", f)
	}
	e := l.file(t, progressPath)[2]
	if len(e.Evidence) != 1 || e.Evidence[0].Field != "verification.commit_sha" || e.Evidence[0].Status != "not-ancestor" || e.Evidence[0].Commit != side {
		t.Errorf("evidence %+v", e.Evidence)
	}
	if ev := l.file(t, progressPath)[1].Evidence; len(ev) != 1 || ev[0].Status != "ancestor" || ev[0].Commit != work {
		t.Errorf("the ancestor: %+v", ev)
	}
}

func TestLogHumanRecorded(t *testing.T) {
	r := ledgerWorkspace(t)
	r.appendTo(progressPath, ledgerEntry("by-hand", hours(3)))
	human := r.CommitAt("a human commits progress", hours(3))
	r.appendTo(progressPath, ledgerEntry("by-agent", hours(4)))
	r.CommitAt("an agent commits progress\n\nCo-Authored-By: Claude <noreply@anthropic.com>", hours(4))
	l := expectLedger(t, r, "off by default", exitOK)
	if got := l.file(t, progressPath); got[1].Recorded.Actor != "human" || got[2].Recorded.Actor != "agent" || !strings.Contains(got[2].Recorded.Evidence, "noreply@anthropic.com") {
		t.Errorf("actors %+v", got)
	}
	r.Write(".small-hook.yml", "rules:\n  ledger/human-recorded: warning\n")
	r.CommitAt("turn it on", hours(5))
	l = expectLedger(t, r, "turned on", exitOK, "warning ledger/human-recorded", "warning ledger/human-recorded")
	if f := l.Findings[1]; f.Commit != human || !strings.Contains(f.Message, "recorded progress entry 2 (task_id by-hand) of agent-owned progress") {
		t.Errorf("finding %+v", f)
	}
	if f := l.Findings[0]; !strings.Contains(f.Message, "progress entry 1 (task_id meta/init)") {
		t.Errorf("the workspace's first commit: %+v", f)
	}
}

func TestLogAgentIdentity(t *testing.T) {
	r := newTestRepo(t)
	one, two := "did:key:z6MkAgentOne", "did:key:z6MkAgentTwo"
	r.Write(".small-hook.yml", "ledger:\n  identities:\n    - did: \""+one+"\"\n      email: one@agents.example\n")
	asOne := []string{"GIT_AUTHOR_NAME=Agent One", "GIT_AUTHOR_EMAIL=one@agents.example"}
	entries := []string{provenanceEntry(one, "created", hours(1))}
	r.Write("artifacts/notes.md", artifact("notes", 1, entries...))
	r.CommitAt("agent one creates the artifact", hours(1), asOne...)
	entries = append(entries, provenanceEntry(two, "updated", hours(2)))
	r.Write("artifacts/notes.md", artifact("notes", 2, entries...))
	r.CommitAt("a human records an update by an agent the configuration does not map", hours(2))
	expectLedger(t, r, "mapped DID by its agent, unmapped DID by a human", exitOK)
	entries = append(entries, provenanceEntry(one, "updated", hours(3)))
	r.Write("artifacts/notes.md", artifact("notes", 3, entries...))
	forged := r.CommitAt("a human records an update in agent one's name", hours(3))
	l := expectLedger(t, r, "mapped DID by someone else", exitFindings, "error ledger/artifact-metadata", "error ledger/agent-identity")
	if f := l.Findings[1]; f.Commit != forged || f.Line != l.file(t, "artifacts/notes.md")[2].Line || !strings.Contains(f.Message, "provenance entry 3 (updated by "+one+")") || !strings.Contains(f.Message, "one@agents.example") {
		t.Errorf("finding %+v", f)
	}
	if f := l.Findings[0]; !strings.Contains(f.Message, "modifiedBy") || f.Commit != forged {
		t.Errorf("the modifiedBy the same commit set: %+v", f)
	}
}

func TestLogArtifactMetadata(t *testing.T) {
	r := newTestRepo(t)
	for i, v := range []string{"v1", "v2", "v3", "v4-merged"} {
		r.copyFileAs("../../testdata/smp/llm-context-research."+v+".md", "artifacts/llm-context-research.md")
		r.CommitAt("awp "+v, time.Date(2026, 11, 22, 11, i, 0, 0, time.UTC))
	}
	expectLedger(t, r, "what awp writes", exitOK)

	agent := "did:key:z6MkAgentOne"
	entries := []string{provenanceEntry(agent, "created", hours(1))}
	r.Write("artifacts/notes.md", artifact("notes", 1, entries...))
	r.CommitAt("created", hours(1))
	entries = append(entries, provenanceEntry(agent, "updated", hours(2)))
	r.Write("artifacts/notes.md", artifact("notes", 3, entries...))
	bumped := r.CommitAt("version up by two for one update", hours(2))
	l := expectLedger(t, r, "a version step of two", exitFindings, "error ledger/artifact-metadata")
	if f := l.Findings[0]; f.Commit != bumped || !strings.Contains(f.Message, "from 1 to 3 while recording 1 updated or merged provenance entry") {
		t.Errorf("finding %+v", f)
	}
	entries = append(entries, provenanceEntry(agent, "updated", hours(3)))
	text := artifact("notes", 4, entries...)
	text = strings.Replace(text, "lastModified: '"+hours(3).Format("2006-01-02T15:04:05.000Z")+"'", "lastModified: '"+hours(9).Format("2006-01-02T15:04:05.000Z")+"'", 1)
	text = strings.Replace(text, "modifiedBy: '"+agent+"'", "modifiedBy: 'did:key:z6MkSomeoneElse'", 1)
	r.Write("artifacts/notes.md", text)
	r.CommitAt("metadata that disagrees", hours(4))
	l = expectLedger(t, r, "lastModified in the future, modifiedBy not the entry's agent", exitFindings,
		"error ledger/artifact-metadata", "error ledger/artifact-metadata", "error ledger/artifact-metadata")
	var msgs []string
	for _, f := range l.Findings {
		msgs = append(msgs, f.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{`lastModified "2026-03-01T18:00:00.000Z" is 5h later than commit`, "modifiedBy \"did:key:z6MkSomeoneElse\" is not the agent of provenance entry 3"} {
		if !strings.Contains(all, want) {
			t.Errorf("no finding says %q:\n%s", want, all)
		}
	}
}

// copyFileAs copies a file of testdata into the work tree under path.
func (r *testRepo) copyFileAs(src, path string) {
	r.T.Helper()
	r.Write(path, readFile(r.T, src))
}
