package main

import (
	"strings"
	"testing"
)

// rebuildWithInsertion resets the checked-out branch to before its last
// two commits (a human's entries at 10:20 and 10:21), appends an agent's
// entry dated 10:19 and copies the two human entries after it, in two
// agent commits; it returns the new tip.
func rebuildWithInsertion(r *testRepo) string {
	r.T.Helper()
	r.Git("reset", "-q", "--hard", "HEAD~2")
	r.Write(progressPath, r.Read(progressPath)+progressEntry("prod deploy verified green", 19))
	r.Commit("verify the deploy\n\n" + agentTrailer)
	r.Write(progressPath, r.Read(progressPath)+progressEntry("deploy FAILED", 20)+progressEntry("rolled back", 21))
	return r.Commit("keep the history\n\n" + agentTrailer)
}

// TestARewriteMayNotInsertBetweenOldEntries: main holds the human's
// "deploy FAILED" (10:20) and "rolled back" (10:21); an agent rebuilds
// main from before them, appends "prod deploy verified green" (10:19)
// and copies the two after it. Every entry main held is still there, in
// order, and each new commit is a clean append, but the agent's entry now
// stands between old ones: the pre-receive hook and CI's forced-push check
// refuse it, and the server's ledger keeps crediting the human. On a
// topic branch the same rebuild is refused (the default branch does not
// hold the agent's entry), and a feature branch rebased onto a default
// branch that moved on, whose entry then stands between the branch's, is
// accepted.
func TestARewriteMayNotInsertBetweenOldEntries(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	s := newServer(t, r, "")
	appendProgress(r, "deploy FAILED", 20)
	human := appendProgress(r, "rolled back", 21)
	out, ok := pushTo(t, r, nil, "main")
	accepted(t, "the human's entries", out, ok)

	r.Git("checkout", "-q", "-b", "agent")
	agent := rebuildWithInsertion(r)
	out, ok = pushTo(t, r, nil, "+agent:main")
	refused(t, "main rebuilt with an entry between old ones", out, ok, "refs/heads/main", agent, progressPath, "small/append-only")
	if !strings.Contains(out, "was inserted between entries of the previous tip") {
		t.Errorf("the finding does not say what was inserted:\n%s", out)
	}
	if got := serverHas(t, s, "refs/heads/main"); got != human {
		t.Fatalf("the server's main moved to %s", got)
	}
	server := repoAt(t, s.dir)
	code, ledger, errOut := server.log()
	if code != exitOK {
		t.Fatalf("small-hook log on the server: exit %d\n%s", code, errOut)
	}
	for _, e := range ledger.file(t, progressPath) {
		if e.Claim.Timestamp == "2026-11-22T10:20:00.000000001Z" && (e.Recorded.Actor != "human" || e.Recorded.Commit == agent) {
			t.Errorf("the server's ledger credits the human's entry to %s (%s)", e.Recorded.Commit, e.Recorded.Actor)
		}
	}

	vars := map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": eventFile(t, pushEvent("main", human, agent, true))}
	if code, out, errOut := r.check(vars, "check", "--ci"); code != exitFindings || !strings.Contains(out, "was inserted between entries of the previous tip") {
		t.Fatalf("CI's forced-push check of main: exit %d\n%s%s", code, out, errOut)
	}

	out, ok = pushTo(t, r, nil, human+":refs/heads/topic")
	accepted(t, "a topic branch", out, ok)
	out, ok = pushTo(t, r, nil, "+agent:topic")
	refused(t, "the topic branch rebuilt with an entry the default branch lacks", out, ok, "refs/heads/topic", agent, progressPath, "small/append-only")

	r.Git("checkout", "-q", "-b", "feature", human)
	appendProgress(r, "the branch's first entry", 30)
	appendProgress(r, "the branch's second entry", 31)
	out, ok = pushTo(t, r, nil, "feature")
	accepted(t, "a feature branch", out, ok)
	r.Git("checkout", "-q", "-B", "main", human)
	main := appendProgress(r, "main moved on", 25)
	out, ok = pushTo(t, r, nil, "main")
	accepted(t, "main moving on", out, ok)
	// The branch rebased onto main: its two commits again on main's tip
	// (the conflict of two appends resolved by keeping both).
	r.Git("checkout", "-q", "-B", "feature", main)
	appendProgress(r, "the branch's first entry", 30)
	appendProgress(r, "the branch's second entry", 31)
	out, ok = pushTo(t, r, nil, "+feature")
	accepted(t, "the feature branch rebased onto main, main's entry now between its own", out, ok)
}

// TestPrePushJudgesInsertionsAsTheServerDoes: the pre-push hook refuses
// the same rebuild of main, and accepts a feature branch rebased onto a
// main that moved on, in a repository whose remote has no
// refs/remotes/origin/HEAD (the commit the branch now grows from, which
// the remote has, stands for the default branch).
func TestPrePushJudgesInsertionsAsTheServerDoes(t *testing.T) {
	t.Parallel()
	r := pushRepo(t)
	appendProgress(r, "deploy FAILED", 20)
	human := appendProgress(r, "rolled back", 21)
	if out, ok := pushOrigin(t, r, "main"); !ok {
		t.Fatal(out)
	}
	r.Git("checkout", "-q", "-b", "agent")
	r.Git("reset", "-q", "--hard", "HEAD~2")
	r.Write(progressPath, r.Read(progressPath)+progressEntry("prod deploy verified green", 19)+progressEntry("deploy FAILED", 20)+progressEntry("rolled back", 21))
	hookedCommit(r, "verify the deploy\n\n"+agentTrailer)
	if out, ok := pushOrigin(t, r, "+agent:main"); ok || !strings.Contains(out, "was inserted between entries of the previous tip") {
		t.Fatalf("main rebuilt with an entry between old ones:\n%s", out)
	}

	r.Git("checkout", "-q", "-b", "feature", human)
	appendProgress(r, "the branch's entry", 30)
	if out, ok := pushOrigin(t, r, "feature"); !ok {
		t.Fatal(out)
	}
	r.Git("checkout", "-q", "main")
	main := appendProgress(r, "main moved on", 25)
	if out, ok := pushOrigin(t, r, "main"); !ok {
		t.Fatal(out)
	}
	r.Git("checkout", "-q", "-B", "feature", main)
	appendProgress(r, "the branch's entry", 30)
	if out, ok := pushOrigin(t, r, "+feature"); !ok {
		t.Fatalf("a feature branch rebased onto main was refused:\n%s", out)
	}
}
