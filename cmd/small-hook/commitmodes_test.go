package main

import (
	"os"
	"strings"
	"testing"
)

// TestCommitModesNeverReadTheIndex: the modes that judge commits alone
// (--base, --previous, --history, --pre-receive) open the repository
// without its index, which on a large work tree is megabytes of mapped
// pages the check never needs (BENCHMARKS.md 4). An index that cannot be
// read at all stops a check that reads it (the staged check, proving the
// test), and none of them: each judges the agent's commit as before.
func TestCommitModesNeverReadTheIndex(t *testing.T) {
	t.Parallel()
	r := agentIntentCommit(t)
	base, head := strings.TrimSpace(r.Git("rev-parse", "HEAD~1")), strings.TrimSpace(r.Git("rev-parse", "HEAD"))
	if err := os.Remove(r.Path(".git/index")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(r.Path(".git/index"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := r.check(nil, "check"); code != exitFailure || !strings.Contains(errOut, "index") {
		t.Fatalf("the staged check read an index that cannot be read: exit %d\n%s%s", code, out, errOut)
	}
	for _, args := range [][]string{{"--base", base}, {"--previous", base}, {"--history"}} {
		code, out, errOut := r.check(nil, append([]string{"check", "--format", "json"}, args...)...)
		if code != exitFindings || !contains(rulesOf(decodeReport(t, out)), "small/ownership") {
			t.Errorf("check %v with an unreadable index: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	// The receiver's branch is where it was before the push.
	r.Git("update-ref", "refs/heads/main", base)
	code, out, errOut := r.checkInput(base+" "+head+" refs/heads/main\n", "check", "--pre-receive", "--format", "json")
	if code != exitFindings || !contains(rulesOf(decodeReport(t, out)), "small/ownership") {
		t.Errorf("check --pre-receive with an unreadable index: exit %d\n%s%s", code, out, errOut)
	}
}
