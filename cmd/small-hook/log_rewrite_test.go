package main

import (
	"strings"
	"testing"
	"time"
)

// TestLogVerifyFailsARewrite: an entry an agent's commit rewrote in
// place, or inserted before older ones, fails `log --verify`; a human's
// intended rewrite (Small-Rewrite:) does not; and the advice of the
// finding, followed, makes the ledger verifiable again.
func TestLogVerifyFailsARewrite(t *testing.T) {
	t.Run("progress", func(t *testing.T) {
		r := ledgerWorkspace(t)
		r.appendTo(progressPath, ledgerEntry("task-1", hours(3)))
		r.CommitAt("task 1", hours(3))
		expectLedger(t, r, "appended", exitOK)
		clean := r.Read(progressPath)
		r.Write(progressPath, strings.Replace(clean, "worked on task-1", "worked on task-1, verified green", 1))
		agent := r.CommitAt("tidy\n\n"+agentTrailer, hours(4))
		l := expectLedger(t, r, "an agent's rewrite in place", exitFindings, "error ledger/rewritten")
		if len(l.Findings) == 0 {
			t.FailNow()
		}
		f := l.Findings[0]
		if e := l.file(t, progressPath)[1]; e.Recorded.Origin != "inserted" || f.Commit != agent || f.Line != e.Line ||
			!strings.Contains(f.Message, "commit "+agent[:12]+" inserted progress entry 2 (task_id task-1)") || !strings.Contains(f.Message, "agent, trailer Co-Authored-By") {
			t.Errorf("entry %+v, finding %+v", e.Recorded, f)
		}
		if code, _, _ := r.log(); code != exitOK {
			t.Errorf("without --verify, log exits %d", code)
		}
		// The advice: a human commit with Small-Rewrite: that restores the
		// entries as they were before the agent's commit.
		if !strings.Contains(f.Message, "a human commit with the trailer Small-Rewrite: <reason> that restores the entries as they were before commit "+agent[:12]) {
			t.Fatalf("the finding gives other advice: %s", f.Message)
		}
		r.Write(progressPath, clean)
		r.CommitAt("restore task 1's entry\n\nSmall-Rewrite: undo an agent's rewrite", hours(5))
		expectLedger(t, r, "restored by a human's intended rewrite", exitOK)

		r.Write(progressPath, strings.Replace(r.Read(progressPath), "    - evidence: worked on task-1", ledgerEntry("task-0", hours(2))+"    - evidence: worked on task-1", 1))
		r.CommitAt("an entry inserted before task 1's, without the trailer", hours(6))
		expectLedger(t, r, "a human's insertion without Small-Rewrite:", exitFindings, "error ledger/rewritten")
		r.Write(progressPath, clean)
		r.CommitAt("remove it\n\nSmall-Rewrite: the entry was inserted by mistake", hours(7))
		expectLedger(t, r, "removed by a human's intended rewrite", exitOK)
	})
	t.Run("provenance", func(t *testing.T) {
		r := newTestRepo(t)
		path := "artifacts/llm-context-research.md"
		v2 := smpFixture(t, "llm-context-research.v2.md")
		r.Write(path, v2)
		r.CommitAt("an artifact", time.Date(2026, 11, 22, 10, 10, 0, 0, time.UTC))
		r.Write(path, strings.Replace(v2, "action: updated", "action: merged", 1))
		agent := r.CommitAt("tidy\n\n"+agentTrailer, time.Date(2026, 11, 22, 11, 0, 0, 0, time.UTC))
		code, l, errOut := r.log("--verify")
		var rewritten []string
		for _, f := range l.Findings {
			if f.Rule == "ledger/rewritten" {
				rewritten = append(rewritten, f.Commit+" "+f.Path)
			}
		}
		if code != exitFindings || len(rewritten) != 1 || rewritten[0] != agent+" "+path {
			t.Errorf("exit %d, ledger/rewritten %v\n%+v%s", code, rewritten, l.Findings, errOut)
		}
	})
}

// orphanRepair commits the reference CLI's repair after `small reset`
// (testdata/small/workflows: 6-reset, then 7-orphan-fix as `small fix
// --orphan-progress` wrote it) twelve days after the entries it renames,
// with msg. The repair's own meta/reconcile-plan entry is dated when the
// repair is committed, as if `small fix` had run then: the hashes it
// records cover the renamed entries, not itself. It returns the commits of
// the reset and of the repair.
func orphanRepair(t *testing.T, msg string) (*testRepo, string, string) {
	r := newTestRepo(t)
	r.copyDir(referenceStep("6-reset"), ".small")
	reset := r.CommitAt("small reset", time.Date(2026, 11, 23, 11, 18, 0, 0, time.UTC))
	r.copyDir(referenceStep("7-orphan-fix"), ".small")
	fixed := r.Read(progressPath)
	const ran = `timestamp: "2026-11-23T11:17:51.034615365Z"`
	if strings.Count(fixed, ran) != 1 {
		t.Fatal("the fixture's reconcile entry moved")
	}
	r.Write(progressPath, strings.Replace(fixed, ran, `timestamp: "2026-12-05T10:00:00.000000000Z"`, 1))
	repair := r.CommitAt(msg, time.Date(2026, 12, 5, 10, 1, 0, 0, time.UTC))
	return r, reset, repair
}

// TestLogAfterTheOrphanRepair: after the repair docs/history.md describes
// (small reset, small fix --orphan-progress, a human commit with
// Small-Rewrite:), the entries the CLI renamed keep the commit that
// recorded them, noted as renamed; the repair records only its own entry
// and is not backfilled. Made by an agent or without the trailer, the
// renames fail log --verify.
func TestLogAfterTheOrphanRepair(t *testing.T) {
	r, reset, repair := orphanRepair(t, "small fix --orphan-progress\n\nSmall-Rewrite: orphan progress after small reset")
	l := expectLedger(t, r, "a human's intended repair", exitOK)
	entries := l.file(t, progressPath)
	renamed := map[int]string{1: "task-2", 4: "task-2", 5: "reset"}
	for i, e := range entries {
		want := reset
		if i == len(entries)-1 {
			want = repair
		}
		if e.Recorded.Commit != want {
			t.Errorf("entry %d (%s) recorded by %s, want %s", i+1, *e.Claim.TaskID, e.Recorded.Commit, want)
		}
		from, ok := renamed[i]
		switch {
		case ok && (e.Renamed == nil || e.Renamed.Commit != repair || e.Renamed.From != from || e.Renamed.Actor != "human"):
			t.Errorf("entry %d (%s): renamed %+v, want from %s by %s", i+1, *e.Claim.TaskID, e.Renamed, from, repair)
		case !ok && e.Renamed != nil:
			t.Errorf("entry %d (%s) renamed %+v", i+1, *e.Claim.TaskID, e.Renamed)
		}
	}
	if _, out, _ := r.check(nil, "log"); !strings.Contains(out, "[with the file; renamed from task-2 by "+repair[:12]+", small fix --orphan-progress]") {
		t.Errorf("the text ledger does not note the rename:\n%s", out)
	}
	for name, msg := range map[string]string{
		"an agent's repair":              "small fix --orphan-progress\n\nSmall-Rewrite: orphan progress\n" + agentTrailer,
		"a repair without Small-Rewrite": "small fix --orphan-progress",
	} {
		r, _, repair := orphanRepair(t, msg)
		l := expectLedger(t, r, name, exitFindings, "error ledger/rewritten")
		if len(l.Findings) == 0 {
			continue
		}
		if f := l.Findings[0]; f.Commit != repair || !strings.Contains(f.Message, "renamed the task_id of 3 progress entries (2, 5 and 6) (small fix --orphan-progress)") {
			t.Errorf("%s: finding %+v", name, f)
		}
	}
}
