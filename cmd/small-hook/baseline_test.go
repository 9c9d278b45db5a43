package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/push"
)

// adoptionAdvice is the command every refusal of an adopted history names.
const adoptionAdvice = "small-hook check --history --write-baseline .small-hook-baseline"

// adoptedRepo is a repository whose history was broken before small-hook
// guarded it (an old progress entry rewritten, committed without hooks):
// it returns the repository and that commit.
func adoptedRepo(t *testing.T) (*testRepo, string) {
	t.Helper()
	r := workspaceRepo(t)
	rewriteProgress(r)
	return r, r.Commit("tidy progress")
}

// recordBaseline follows the advice exactly: it runs the command it
// names, installs the hooks and commits the baseline through them, as a
// human. It returns the new commit.
func recordBaseline(t *testing.T, r *testRepo) string {
	t.Helper()
	out, _ := runIn(t, r.Dir, binEnv(t), smallHook.path(t), strings.Fields(adoptionAdvice)[1:]...)
	if !strings.Contains(out, "wrote 1 fingerprint to") || !r.exists(config.Baseline) {
		t.Fatalf("%s did not write the baseline:\n%s", adoptionAdvice, out)
	}
	installHooks(t, r.Dir)
	return hookedCommit(r, "Record the history small-hook adopted")
}

// githubFirstPush is GitHub's push event for the push that creates the
// default branch main at after, written to a file: the variables of
// CI's first run.
func githubFirstPush(t *testing.T, after string) map[string]string {
	t.Helper()
	payload := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(payload, []byte(pushEvent("main", push.ZeroID, after, false)), 0o644); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": payload}
}

// refusedWithAdvice fails the test unless a check or a push was refused
// for the rewrite on commit and named the way to record it.
func refusedWithAdvice(t *testing.T, what, out string, ok bool, commit string) {
	t.Helper()
	if ok || !strings.Contains(out, "small/append-only") || !strings.Contains(out, commit[:12]) {
		t.Fatalf("%s: not refused for the rewrite on %.12s:\n%s", what, commit, out)
	}
	if !strings.Contains(out, adoptionAdvice) {
		t.Fatalf("%s: the refusal does not name %q:\n%s", what, adoptionAdvice, out)
	}
}

// TestAdoptedHistoryIsPublishedAtEveryEnforcementPoint follows README's
// adoption through real git: check --history refuses a rewrite made before
// small-hook and names the baseline; the command it names records it, a
// human commits it, and from then on every enforcement point accepts the
// adopted history — check --history, CI's first run, pre-commit's first
// push, the first push to an empty remote, an import into an empty server
// with the pre-receive hook —
// where each refused the same history without the baseline. A rewrite made
// after the baseline is still refused.
func TestAdoptedHistoryIsPublishedAtEveryEnforcementPoint(t *testing.T) {
	t.Parallel()
	r, broken := adoptedRepo(t)
	unrecorded := r.Git("rev-parse", "HEAD")
	code, out, _ := r.check(nil, "check", "--history")
	refusedWithAdvice(t, "check --history", out, code != exitFindings, broken)
	head := recordBaseline(t, r)

	code, out, errOut := r.check(nil, "check", "--history")
	if code != exitOK || !strings.Contains(out, "the .small-hook-baseline of HEAD accepts 1 finding") {
		t.Fatalf("check --history with the baseline: exit %d\n%s%s", code, out, errOut)
	}

	code, out, _ = r.check(githubFirstPush(t, unrecorded), "check", "--ci")
	refusedWithAdvice(t, "CI's first run without the baseline", out, code != exitFindings, broken)
	code, out, errOut = r.check(githubFirstPush(t, head), "check", "--ci")
	if code != exitOK || !strings.Contains(out, "accepts 1 finding on commits of the adopted history") {
		t.Fatalf("CI's first run with the baseline: exit %d\n%s%s", code, out, errOut)
	}
	preCommitFirstPush := func(ref string) map[string]string {
		return map[string]string{"PRE_COMMIT": "1", "PRE_COMMIT_REMOTE_NAME": "origin", "PRE_COMMIT_REMOTE_URL": "/srv/origin.git",
			"PRE_COMMIT_LOCAL_BRANCH": ref, "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main"}
	}
	r.Git("branch", "unrecorded", unrecorded)
	code, out, _ = r.check(preCommitFirstPush("refs/heads/unrecorded"), "check", "--ci")
	refusedWithAdvice(t, "pre-commit's first push without the baseline", out, code != exitFindings, broken)
	if code, out, errOut = r.check(preCommitFirstPush("refs/heads/main"), "check", "--ci"); code != exitOK {
		t.Fatalf("pre-commit's first push with the baseline: exit %d\n%s%s", code, out, errOut)
	}

	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	out, ok := pushOrigin(t, r, unrecorded+":refs/heads/main")
	refusedWithAdvice(t, "the first push without the baseline", out, ok, broken)
	if out, ok := pushOrigin(t, r, "-u", "main"); !ok {
		t.Fatalf("the first push of the adopted history was refused:\n%s", out)
	}

	dir := filepath.Join(t.TempDir(), "server.git")
	r.Git("init", "-q", "--bare", "--initial-branch=main", dir)
	installHooks(t, dir)
	r.Git("remote", "add", "server", "file://"+dir)
	out, ok = pushTo(t, r, nil, "--no-verify", unrecorded+":refs/heads/main")
	refused(t, "an import into an empty server without the baseline", out, ok, "refs/heads/main", broken, progressPath, "small/append-only")
	if !strings.Contains(out, adoptionAdvice) {
		t.Fatalf("the server's refusal does not name %q:\n%s", adoptionAdvice, out)
	}
	out, ok = pushTo(t, r, nil, "--no-verify", "main")
	accepted(t, "an import of the adopted history into an empty server", out, ok)

	r.Write(progressPath, strings.Replace(r.Read(progressPath), "started writing tests", "rewritten later", 1))
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "a rewrite after the baseline")
	later := r.Git("rev-parse", "HEAD")
	code, out, _ = r.check(nil, "check", "--history")
	if code != exitFindings || !strings.Contains(out, later[:12]) || strings.Contains(out, broken[:12]) {
		t.Fatalf("check --history: the rewrite after the baseline is not refused alone:\n%s", out)
	}
	out, ok = pushOrigin(t, r, "main")
	if ok || !strings.Contains(out, "small/append-only") || !strings.Contains(out, later[:12]) {
		t.Fatalf("a push of a rewrite made after the baseline went through:\n%s", out)
	}
}

// TestBaselineCountsOnlyWhereItsWriterHasStanding: where nothing is
// trusted, a baseline in the judged history counts only when a human's
// commit wrote it, and only for the commits it was written on top of;
// where a revision is trusted, only that revision's baseline counts.
func TestBaselineCountsOnlyWhereItsWriterHasStanding(t *testing.T) {
	t.Parallel()
	t.Run("written by an agent, nothing trusted", func(t *testing.T) {
		t.Parallel()
		r, broken := adoptedRepo(t)
		r.check(nil, "check", "--history", "--write-baseline", config.Baseline)
		head := r.Commit("Record the history\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
		code, out, _ := r.check(githubFirstPush(t, head), "check", "--ci", "--format", "json")
		rep := decodeReport(t, out)
		if code != exitFindings || !contains(rulesOf(rep), "small/append-only") || !contains(rulesOf(rep), "small/ownership") {
			t.Fatalf("an agent's baseline: exit %d, want the rewrite on %.12s and the agent's edit of the baseline refused\n%s", code, broken, out)
		}
		if !strings.Contains(out, "is not honoured") || !strings.Contains(out, "Co-Authored-By: Claude") {
			t.Errorf("the report does not say why the baseline was not honoured:\n%s", out)
		}
	})
	t.Run("a commit beside the one that wrote it, nothing trusted", func(t *testing.T) {
		t.Parallel()
		r := workspaceRepo(t)
		r.Git("checkout", "-q", "-b", "side")
		rewriteProgress(r)
		beside := r.Commit("tidy progress on a side branch")
		r.Git("checkout", "-q", "main")
		if code, out, errOut := r.check(nil, "check", "--history", "--head", "side", "--write-baseline", config.Baseline); !strings.Contains(out, "wrote 1 fingerprint") {
			t.Fatalf("writing the side branch's baseline: exit %d\n%s%s", code, out, errOut)
		}
		r.Commit("Record the side branch's history")
		r.Git("merge", "-q", "--no-edit", "side")
		head := r.Git("rev-parse", "HEAD")
		code, out, _ := r.check(githubFirstPush(t, head), "check", "--ci")
		if code != exitFindings || !strings.Contains(out, beside[:12]) {
			t.Fatalf("a baseline accepted a commit it was not written on top of: exit %d\n%s", code, out)
		}
	})
	t.Run("the pushed history's own, a revision trusted", func(t *testing.T) {
		t.Parallel()
		r := workspaceRepo(t)
		base := r.Git("rev-parse", "HEAD")
		r.Git("checkout", "-q", "-b", "feature")
		rewriteProgress(r)
		broken := r.Commit("tidy progress")
		r.check(nil, "check", "--history", "--write-baseline", config.Baseline)
		r.Commit("Record the history")
		code, out, _ := r.check(nil, "check", "--base", base)
		if code != exitFindings || !strings.Contains(out, broken[:12]) || strings.Contains(out, adoptionAdvice) {
			t.Fatalf("a pull request vouched for its own rewrite with a baseline: exit %d\n%s", code, out)
		}
	})
}

// TestTrustedBaselineAcceptsWhatItRecords: a baseline on the default
// branch records an old branch's history (written with --head); the pull
// request check (--base) and the server's pre-receive hook accept that
// branch's adopted commits, and refuse them without the baseline.
func TestTrustedBaselineAcceptsWhatItRecords(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	s := newServer(t, r, "")
	r.Git("checkout", "-q", "-b", "old")
	rewriteProgress(r)
	broken := r.Commit("tidy progress on an old branch")
	r.Git("checkout", "-q", "main")
	code, out, _ := r.check(nil, "check", "--base", "main", "--head", "old")
	if code != exitFindings || !strings.Contains(out, broken[:12]) {
		t.Fatalf("--base without a baseline: exit %d\n%s", code, out)
	}
	out, ok := pushTo(t, r, nil, "old")
	refused(t, "the old branch without a baseline", out, ok, "refs/heads/old", broken, progressPath, "small/append-only")

	r.check(nil, "check", "--history", "--head", "old", "--write-baseline", config.Baseline)
	r.Commit("Record the old branch's history")
	if out, ok := pushTo(t, r, nil, "main"); !ok {
		t.Fatalf("pushing the baseline: %s", out)
	}
	code, out, errOut := r.check(nil, "check", "--base", "main", "--head", "old")
	if code != exitOK || !strings.Contains(out, "the .small-hook-baseline of main accepts 1 finding") {
		t.Fatalf("--base with the base's baseline: exit %d\n%s%s", code, out, errOut)
	}
	out, ok = pushTo(t, r, nil, "old")
	accepted(t, "the old branch with the default branch's baseline", out, ok)
	if got := serverHas(t, s, "refs/heads/old"); got != broken {
		t.Fatalf("the server's old is %s, want %s", got, broken)
	}
}

// TestBaselineMistakesAreClear: a baseline that is not one (an abbreviated
// commit id) is exit 2 naming the file and the line — staged, committed,
// or the file --write-baseline would extend — and --write-baseline
// without --history is a usage error.
func TestBaselineMistakesAreClear(t *testing.T) {
	t.Parallel()
	r, broken := adoptedRepo(t)
	r.Write(config.Baseline, "# adopted\n"+broken[:12]+":"+progressPath+":small/append-only:27\n")
	r.Git("add", "-A")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--write-baseline", "b.txt"}, "--write-baseline needs --history"},
		{[]string{"check"}, "line 2 of the staged .small-hook-baseline: a fingerprint starts with the full 40-digit id"},
		{[]string{"check", "--history", "--write-baseline", config.Baseline}, "--write-baseline " + config.Baseline + ": line 2: a fingerprint starts with the full 40-digit id"},
	} {
		if code, out, errOut := r.check(nil, c.args...); code != exitFailure || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, want 2 saying %q\n%s%s", c.args, code, c.want, out, errOut)
		}
	}
	r.Git("commit", "-q", "-m", "a malformed baseline")
	want := "line 2 of the .small-hook-baseline of HEAD: a fingerprint starts with the full 40-digit id"
	if code, out, errOut := r.check(nil, "check", "--history"); code != exitFailure || !strings.Contains(errOut, want) {
		t.Errorf("check --history: exit %d, want 2 saying %q\n%s%s", code, want, out, errOut)
	}
}

// TestReadmeAdoptionPublishes runs README.md's adoption steps exactly, in
// a repository whose history was broken before small-hook, then pushes it
// to a new, empty remote through the hooks they install: the push goes
// through.
func TestReadmeAdoptionPublishes(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(data), "## Adopt it in a repository\n")
	_, rest, ok := strings.Cut(section, "```sh\n")
	script, _, closed := strings.Cut(rest, "\n```\n")
	if !ok || !closed {
		t.Fatal("README.md's adoption section has no sh block")
	}
	r, _ := adoptedRepo(t)
	if out, _ := runIn(t, r.Dir, binEnv(t), "bash", "-c", script); !r.exists(config.Baseline) {
		t.Fatalf("README's adoption steps wrote no baseline:\n%s", out)
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	r.Git("init", "-q", "--bare", remote)
	r.Git("remote", "add", "origin", remote)
	if out, ok := pushOrigin(t, r, "-u", "main"); !ok {
		t.Fatalf("the first push after README's adoption steps was refused:\n%s", out)
	}
}

// TestBaselineNeverRepeatsASecret: a finding on a file named after a key
// is not written to the baseline (the file holds no piece of the key),
// and stays reported once the baseline is committed; the other finding
// of the same history is recorded.
func TestBaselineNeverRepeatsASecret(t *testing.T) {
	t.Parallel()
	key := longKey()
	r, broken := adoptedRepo(t)
	r.Write(".small/"+key+".yml", "notes: x\n")
	named := r.Commit("notes")
	r.check(nil, "check", "--history", "--write-baseline", config.Baseline)
	written := r.Read(config.Baseline)
	if p := pieceOf(written, key); p != "" || !strings.Contains(written, broken) {
		t.Fatalf("the baseline holds %q of the key, or lacks the rewrite on %.12s:\n%s", p, broken, written)
	}
	r.Commit("Record the history")
	code, out, _ := r.check(nil, "check", "--history")
	if code != exitFindings || !strings.Contains(out, named[:12]) || strings.Contains(out, broken[:12]) {
		t.Fatalf("exit %d: want the finding on %.12s alone reported\n%s", code, named, out)
	}
}

// TestAdoptedHistoryThroughTheActionsFirstRun: the GitHub Action's first
// run, on the push that creates the default branch, refuses a history
// broken before adoption and names the baseline; with the baseline a human
// committed, it passes.
func TestAdoptedHistoryThroughTheActionsFirstRun(t *testing.T) {
	r, broken := adoptedRepo(t)
	for _, recorded := range []bool{false, true} {
		if recorded {
			recordBaseline(t, r)
		}
		head := r.Git("rev-parse", "HEAD")
		remote := filepath.Join(t.TempDir(), "remote.git")
		r.Git("init", "-q", "--bare", remote)
		r.Git("push", "-q", "--no-verify", remote, "main")
		checkout := filepath.Join(t.TempDir(), "checkout")
		r.Git("clone", "-q", "--no-local", remote, checkout)
		run := runAction(t, checkout, nil, "push", pushEvent("main", push.ZeroID, head, false))
		switch {
		case recorded && run.outputs["exit-code"] != "0":
			t.Fatalf("the Action's first run with the baseline: exit-code %q:\n%s", run.outputs["exit-code"], run.log)
		case !recorded && (run.outputs["exit-code"] != "1" || !strings.Contains(run.log, broken[:12]) || !strings.Contains(run.log, adoptionAdvice)):
			t.Fatalf("the Action's first run without the baseline: exit-code %q, want 1 naming %.12s and %q:\n%s", run.outputs["exit-code"], broken, adoptionAdvice, run.log)
		}
	}
}
