package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/rules/registry"
)

// progressEntry is a valid progress entry in the reference CLI's layout,
// recorded at 10:<minute> on the fixture's day (later than every fixture
// entry for minutes above 16).
func progressEntry(evidence string, minute int) string {
	return fmt.Sprintf(`    - evidence: %s
      replayId: ab1497cf5afa8dccde350b967d256c58aea53f18794ab590487f25e4f3a040f2
      status: completed
      task_id: task-3
      timestamp: "2026-11-22T10:%02d:00.000000001Z"
`, evidence, minute)
}

// appendProgress appends an entry and commits it.
func appendProgress(r *testRepo, evidence string, minute int) string {
	r.T.Helper()
	r.Write(progressPath, r.Read(progressPath)+progressEntry(evidence, minute))
	return hookedCommit(r, "progress: "+evidence)
}

// hookedCommit stages everything and commits with the small-hook binary
// on PATH, so that installed hooks run (and must pass).
func hookedCommit(r *testRepo, msg string) string {
	r.T.Helper()
	r.Git("add", "-A")
	r.GitEnv([]string{binPATH(r.T)}, "commit", "-q", "--allow-empty", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}

// pushRepo is a workspace repository with small-hook's native hooks
// installed and a bare remote "origin" that holds main.
func pushRepo(t *testing.T) *testRepo {
	t.Helper()
	r := workspaceRepo(t)
	if out, ok := runIn(t, r.Dir, binEnv(t), smallHook.path(t), "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	if out, ok := runIn(t, r.Dir, binEnv(t), "git", "push", "-q", "origin", "main"); !ok {
		t.Fatalf("the first push was refused:\n%s", out)
	}
	return r
}

// pushOrigin runs git push to origin with the native hooks and returns
// the output and whether the push went through.
func pushOrigin(t *testing.T, r *testRepo, args ...string) (string, bool) {
	t.Helper()
	return runIn(t, r.Dir, binEnv(t), "git", append([]string{"push", "-q", "origin"}, args...)...)
}

// refusedAsRewrite fails the test unless out refuses a push for entries
// the previous tip held, naming both tips.
func refusedAsRewrite(t *testing.T, what, out string, ok bool, previous, next string) {
	t.Helper()
	if ok || !strings.Contains(out, "small/append-only") {
		t.Fatalf("%s went through:\n%s", what, out)
	}
	if !strings.Contains(out, "does not contain its previous tip "+previous[:12]) || !strings.Contains(out, "new tip "+next[:12]) {
		t.Fatalf("%s: the finding does not name both tips (%s, %s):\n%s", what, previous[:12], next[:12], out)
	}
}

// rewriteTwoAppends commits two appends (and pushes them when pushed),
// resets the branch before them and commits a different append: it
// returns the replaced tip and the new one.
func rewriteTwoAppends(t *testing.T, r *testRepo, pushed bool) (old, next string) {
	t.Helper()
	appendProgress(r, "first append", 21)
	old = appendProgress(r, "second append", 22)
	if pushed {
		if out, ok := pushOrigin(t, r, "main"); !ok {
			t.Fatalf("two appends were refused:\n%s", out)
		}
	}
	r.Git("reset", "-q", "--hard", "HEAD~2")
	return old, appendProgress(r, "a different append", 23)
}

func TestForcePushIsComparedWithThePreviousTip(t *testing.T) {
	r := pushRepo(t)
	// The branch is reset and a different append is force-pushed: each new
	// commit is a clean append to its parent, but two entries are gone.
	old, other := rewriteTwoAppends(t, r, true)
	out, ok := pushOrigin(t, r, "--force", "main")
	refusedAsRewrite(t, "a force-push that drops two entries", out, ok, old, other)

	// A reset alone pushes no new commit at all.
	r.Git("reset", "-q", "--hard", "HEAD~1")
	out, ok = pushOrigin(t, r, "--force", "main")
	refusedAsRewrite(t, "a force-push of a reset", out, ok, old, r.Git("rev-parse", "HEAD"))

	// An orphan branch shares no history with the tip it replaces.
	r.Git("checkout", "-q", "--orphan", "orphan")
	r.Git("rm", "-q", "-r", "--cached", ".")
	r.copyDir(fixtureInit, ".small")
	orphan := hookedCommit(r, "start over")
	out, ok = pushOrigin(t, r, "--force", "orphan:main")
	refusedAsRewrite(t, "a force-push of an orphan branch", out, ok, old, orphan)

	// Rewriting only what is not governed (here a commit message) keeps
	// every entry: the force-push goes through.
	r.Git("checkout", "-q", "-B", "main", old)
	r.GitEnv([]string{binPATH(r.T)}, "commit", "-q", "--amend", "-m", "second append, better message")
	if out, ok := pushOrigin(t, r, "--force", "main"); !ok {
		t.Fatalf("a force-push that keeps every entry was refused:\n%s", out)
	}
	// A force-push that keeps the previous tip's entries and appends more.
	kept := r.Git("rev-parse", "HEAD")
	r.Git("reset", "-q", "--hard", "HEAD~1")
	r.Write(progressPath, r.Read(progressPath)+progressEntry("second append", 22)+progressEntry("third append", 24))
	hookedCommit(r, "second and third append")
	if out, ok := pushOrigin(t, r, "--force", "main"); !ok {
		t.Fatalf("a force-push that keeps %s's entries and appends was refused:\n%s", kept[:12], out)
	}
}

// TestForcePushInCI: GitHub's push event (forced), GitLab's push pipeline
// (CI_COMMIT_BEFORE_SHA) and pre-commit's pre-push stage name the tip a
// push replaced, and a pull request's base, which may have moved on, is
// not such a tip.
func TestForcePushInCI(t *testing.T) {
	r := workspaceRepo(t)
	old, next := rewriteTwoAppends(t, r, false)

	payload := eventFile(t, pushEvent("main", old, next, true))
	for name, vars := range map[string]map[string]string{
		"GitHub push":         {"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": payload},
		"GitLab push":         {"CI": "true", "GITLAB_CI": "true", "CI_COMMIT_SHA": next, "CI_COMMIT_BEFORE_SHA": old, "CI_COMMIT_BRANCH": "main", "CI_DEFAULT_BRANCH": "main"},
		"pre-commit pre-push": {"PRE_COMMIT_FROM_REF": old, "PRE_COMMIT_TO_REF": next, "PRE_COMMIT_REMOTE_NAME": "origin", "PRE_COMMIT_REMOTE_URL": "/srv/origin.git", "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main", "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main"},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := r.check(vars, "check", "--ci")
			refusedAsRewrite(t, name, out, code == exitOK, old, next)
			if code != exitFindings {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			if !strings.Contains(out, "the two tips compared") {
				t.Errorf("the summary does not say the tips were compared:\n%s", out)
			}
		})
	}
	t.Run("--previous", func(t *testing.T) {
		code, out, _ := r.check(nil, "check", "--previous", old, "--head", next)
		refusedAsRewrite(t, "--previous", out, code == exitOK, old, next)
	})
	t.Run("--base keeps pull-request semantics", func(t *testing.T) {
		if code, out, _ := r.check(nil, "check", "--base", old, "--head", next); code != exitOK {
			t.Fatalf("exit %d\n%s", code, out)
		}
	})
}

// TestPullRequestWhoseBaseMovedOnPasses: main appended entries after the
// branch forked; the pull request's base is main's tip, which the branch
// does not contain, and that is not a rewrite.
func TestPullRequestWhoseBaseMovedOnPasses(t *testing.T) {
	r := workspaceRepo(t)
	fork := r.Git("rev-parse", "HEAD")
	appendProgress(r, "main's append", 21)
	base := appendProgress(r, "main's second append", 22)
	r.Git("checkout", "-q", "-b", "feature", fork)
	head := appendProgress(r, "the branch's append", 23)
	payload := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(payload, []byte(pullRequestEvent(base, head)), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": payload}
	if code, out, errOut := r.check(vars, "check", "--ci"); code != exitOK || strings.Contains(out, "tips compared") {
		t.Fatalf("a pull request whose base moved on: exit %d\n%s%s", code, out, errOut)
	}
}

// TestSkewedMainCommitStaysOutOfThePullRequest is the case: a
// main commit dated earlier than its parent. Only the pull request's own
// commit is checked, as git rev-list main..pr lists, so main's old commit
// (a rewrite committed with --no-verify) does not fail the pull request.
func TestSkewedMainCommitStaysOutOfThePullRequest(t *testing.T) {
	r := workspaceRepo(t)
	dated := func(date string, args ...string) {
		r.T.Helper()
		r.GitEnv([]string{"GIT_COMMITTER_DATE=" + date, "GIT_AUTHOR_DATE=" + date}, args...)
	}
	rewriteProgress(r)
	r.Git("add", "-A")
	dated("2026-11-22T12:00:00Z", "commit", "-q", "-m", "an old rewrite, already on main")
	fork := r.Git("rev-parse", "HEAD")
	r.Write("README.md", "docs\n")
	r.Git("add", "-A")
	dated("2020-01-01T00:00:00Z", "commit", "-q", "-m", "main's tip, made on a machine with a wrong clock")
	r.Git("checkout", "-q", "-b", "pr", fork)
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Git("add", "-A")
	dated("2026-11-22T13:00:00Z", "commit", "-q", "-m", "the pull request")
	if n := r.Git("rev-list", "--count", "main..pr"); n != "1" {
		t.Fatalf("git rev-list main..pr lists %s commits", n)
	}
	code, out, errOut := r.check(nil, "check", "--base", "main", "--head", "pr", "--format", "json")
	if code != exitOK || decodeReport(t, out).Summary.Commits != 1 {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
}

// TestHistoryJudgesTheRootCommit: --base excludes the root commit (git's
// semantics); --history judges it as adding its files, and so does the
// first push of a repository to a remote with no default branch.
func TestHistoryJudgesTheRootCommit(t *testing.T) {
	r := newTestRepo(t)
	r.copyDir(fixtureInit, ".small")
	r.Write(progressPath, strings.Replace(r.Read(progressPath), `small_version: "1.0.0"`, `small_version: "2.0"`, 1))
	root := r.Commit("adopt small-hook on an existing workspace")
	r.Write("README.md", "docs\n")
	r.Commit("docs")
	if code, out, _ := r.check(nil, "check", "--base", root); code != exitOK {
		t.Fatalf("--base ROOT judged the root commit: exit %d\n%s", code, out)
	}
	code, out, _ := r.check(nil, "check", "--history", "--format", "json")
	rep := decodeReport(t, out)
	if code != exitFindings || !contains(rulesOf(rep), "small/version") || rep.Summary.Commits != 2 {
		t.Fatalf("--history: exit %d\n%s", code, out)
	}
	for _, f := range rep.Findings {
		if f.Rule == "small/version" && f.Commit != root {
			t.Errorf("small/version reported on %s, not on the root commit", f.Commit)
		}
	}
	if out, ok := runIn(t, r.Dir, binEnv(t), smallHook.path(t), "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	if out, ok := pushOrigin(t, r, "main"); ok || !strings.Contains(out, "small/version") {
		t.Fatalf("the first push of a repository whose root commit is wrong went through:\n%s", out)
	}
}

// TestContinuityRules pins the rules a tip comparison runs: those that
// judge whether history continues, not what each commit added.
func TestContinuityRules(t *testing.T) {
	var got []string
	for _, r := range registry.All() {
		if r.Continuity {
			got = append(got, r.ID)
		}
	}
	if want := "small/append-only smp/id smp/append-only smp/version smp/undeclared"; strings.Join(got, " ") != want {
		t.Errorf("continuity rules %q, want %q", strings.Join(got, " "), want)
	}
}

// TestTipComparisonRunsOnlyContinuityRules: a force-push whose new tip
// holds content the per-commit rules judge (an entry without evidence)
// is reported once, on its commit, not again by the tip comparison.
func TestTipComparisonRunsOnlyContinuityRules(t *testing.T) {
	r := workspaceRepo(t)
	old := appendProgress(r, "first append", 21)
	r.Git("reset", "-q", "--hard", "HEAD~1")
	r.Write(progressPath, r.Read(progressPath)+strings.Replace(progressEntry("x", 22), "evidence: x", "notes: no evidence", 1))
	next := r.Commit("an entry without evidence")
	code, out, _ := r.check(nil, "check", "--previous", old, "--head", next, "--format", "json")
	rep := decodeReport(t, out)
	evidence, appendOnly := 0, 0
	for _, f := range rep.Findings {
		switch f.Rule {
		case "small/evidence":
			evidence++
		case "small/append-only":
			appendOnly++
			if !strings.Contains(f.Message, "does not contain its previous tip") {
				t.Errorf("an append-only finding that does not name the tips: %s", f.Message)
			}
		}
	}
	if code != exitFindings || evidence != 1 || appendOnly == 0 {
		t.Fatalf("exit %d, %d small/evidence (want 1), %d small/append-only\n%s", code, evidence, appendOnly, out)
	}
}

// TestForcePushThroughTheAction: the Action fetches the tip a force-push
// replaced, which a fresh checkout of the branch lacks, and refuses the
// push that dropped its entries.
func TestForcePushThroughTheAction(t *testing.T) {
	r := pushRepo(t)
	old, next := rewriteTwoAppends(t, r, true)
	r.Git("push", "-q", "--no-verify", "--force", "origin", "main")

	remote := r.Git("remote", "get-url", "origin")
	r.Git("-C", remote, "config", "uploadpack.allowAnySHA1InWant", "true") // as GitHub serves it
	checkout := filepath.Join(t.TempDir(), "checkout")
	r.Git("clone", "-q", "--no-local", remote, checkout)
	if _, err := repoAt(t, checkout).Try("cat-file", "-e", old+"^{commit}"); err == nil {
		t.Fatal("the fresh checkout already holds the replaced tip; the test proves nothing")
	}
	run := runAction(t, checkout, nil, "push", pushEvent("main", old, next, true))
	if run.outputs["exit-code"] != "1" || !strings.Contains(run.log, "small/append-only") || !strings.Contains(run.log, old[:12]) {
		t.Fatalf("the Action let a force-push that dropped entries through (exit-code %q):\n%s", run.outputs["exit-code"], run.log)
	}
}

// TestTipComparisonVerifiesEachCommitOnce: the tip comparison attributes
// the new tip's commit, which the range judged too; the report lists its
// signature once.
func TestTipComparisonVerifiesEachCommitOnce(t *testing.T) {
	r, _ := signingRepo(t, signedConfig("human-owned"), "")
	old := appendProgress(r, "first append", 21)
	r.Git("reset", "-q", "--hard", "HEAD~1")
	next := appendProgress(r, "a different append", 22)
	code, out, errOut := r.check(nil, "check", "--previous", old, "--head", next, "--format", "json")
	rep := decodeSigned(t, out)
	if code != exitFindings || len(rep.Signatures) != 1 || rep.Signatures[0].Commit != next {
		t.Fatalf("exit %d, signatures %+v; want %s's once\n%s%s", code, rep.Signatures, next, out, errOut)
	}
}
