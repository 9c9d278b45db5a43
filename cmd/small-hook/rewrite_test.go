package main

import (
	"strings"
	"testing"
)

// trailerAdvice is what the append-only refusal tells a human to run when
// the commit-msg stage reads the message.
const trailerAdvice = `git commit -m "<subject>" -m "Small-Rewrite: <reason>"`

// TestHumanRewriteThroughNativeHooks follows the append-only refusal's
// advice through the native hooks: the pre-commit stage leaves the
// decision (and the output) to the commit-msg stage, which refuses a
// rewrite without the trailer, accepts `git commit -m "fix typo" -m "Small-Rewrite: typo"`
// from a human, and refuses it from an agent.
func TestHumanRewriteThroughNativeHooks(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	bin, env := withBinary(t)
	if out, ok := runIn(t, r.Dir, env, bin, "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	rewriteProgress(r)
	r.Git("add", "-A")
	out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "fix typo")
	if ok || strings.Contains(out, "(pre-commit stage)") || !strings.Contains(out, "(commit-msg stage): 1 error") {
		t.Fatalf("want the pre-commit stage to leave the rewrite to the commit-msg stage, which refuses it:\n%s", out)
	}
	if !strings.Contains(out, trailerAdvice) || strings.Contains(out, "SMALL_HOOK_REWRITE") {
		t.Fatalf("the refusal must name the trailer, and only the trailer, in this setup:\n%s", out)
	}
	agent := "Small-Rewrite: typo\nCo-Authored-By: Claude <noreply@anthropic.com>"
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "fix typo", "-m", agent); ok || !strings.Contains(out, "Small-Rewrite: typo is not enough") {
		t.Fatalf("an agent's rewrite with the trailer went through:\n%s", out)
	}
	out, ok = runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "fix typo", "-m", "Small-Rewrite: typo")
	if !ok || !strings.Contains(out, "warning small/append-only") || !strings.Contains(out, "Small-Rewrite: typo]") {
		t.Fatalf("a human's rewrite with the trailer the advice names was refused:\n%s", out)
	}
	if got := r.Git("log", "-1", "--format=%(trailers:key=Small-Rewrite,valueonly)"); got != "typo" {
		t.Fatalf("the commit's Small-Rewrite trailer is %q", got)
	}
}

// TestRangeRewriteAdviceWorks follows the range check's advice for a
// rewrite committed without the trailer: reword the commit.
func TestRangeRewriteAdviceWorks(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	base := r.Git("rev-parse", "HEAD")
	rewriteProgress(r)
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "fix typo")
	code, out, _ := r.check(nil, "check", "--base", base)
	if code != exitFindings || !strings.Contains(out, "git commit --amend") {
		t.Fatalf("exit %d, want the advice to reword the commit:\n%s", code, out)
	}
	r.Git("commit", "-q", "--no-verify", "--amend", "-m", "fix typo", "-m", "Small-Rewrite: typo")
	if code, out, _ := r.check(nil, "check", "--base", base); code != exitOK || !strings.Contains(out, "warning small/append-only") {
		t.Fatalf("exit %d after following the advice:\n%s", code, out)
	}
}

// TestDeletedProgressAdviceWorks follows the advice for a staged deletion
// of the progress file.
func TestDeletedProgressAdviceWorks(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	r.Git("rm", "-q", progressPath)
	code, out, _ := r.check(nil, "check")
	advice := "git restore --staged --worktree " + progressPath
	if code != exitFindings || !strings.Contains(out, advice) {
		t.Fatalf("exit %d, want the advice %q:\n%s", code, advice, out)
	}
	r.Git(strings.Fields(advice)[1:]...)
	if code, out, _ := r.check(nil, "check"); code != exitOK {
		t.Fatalf("exit %d after following the advice:\n%s", code, out)
	}
}

// TestSignedAgentCommitCannotRewrite: a commit signed with a human's
// allowed key that keeps an agent's co-author trailer does not get a
// human's privilege to rewrite progress; without the marker it does.
func TestSignedAgentCommitCannotRewrite(t *testing.T) {
	t.Parallel()
	alice, alicePub := sshKey(t, "alice")
	for _, c := range []struct {
		name, msg string
		code      int
		severity  string
		says      string
	}{
		{"with an agent marker", "fix typo\n\nSmall-Rewrite: typo\nCo-Authored-By: Claude <noreply@anthropic.com>", exitFindings, "error",
			"withdraws a human's privilege to rewrite history, signed or not"},
		{"without one", "fix typo\n\nSmall-Rewrite: typo", exitOK, "warning", "an intended rewrite by a human commit (valid ssh signature"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, base := signingRepo(t, signedConfig("human-owned"), "human@example.com namespaces=\"git\" "+alicePub+"\n")
			rewriteProgress(r)
			sshCommit(r, alice, c.msg)
			code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
			var got []string
			for _, f := range decodeReport(t, out).Findings {
				if f.Rule == "small/append-only" {
					got = append(got, f.Severity+": "+f.Text())
				}
			}
			if code != c.code || len(got) != 1 || !strings.HasPrefix(got[0], c.severity+": ") || !strings.Contains(got[0], c.says) {
				t.Fatalf("exit %d (want %d), append-only findings %q, want one %s saying %q\n%s", code, c.code, got, c.severity, c.says, errOut)
			}
		})
	}
}

// TestHumanRetiresAnArtifact retires a knowledge artifact through the
// native hooks: `git rm` with the trailer Small-Rewrite: <reason> is a
// human's legitimate, recorded decision; an agent may not, and nobody
// deletes the source of a merge another artifact records.
func TestHumanRetiresAnArtifact(t *testing.T) {
	t.Parallel()
	r, base := smpRepo(t)
	const note = "artifacts/quick-note.md"
	r.Write(note, smpFixture(t, "quick-note.anonymous.md"))
	r.Commit("a quick note")
	bin, env := withBinary(t)
	if out, ok := runIn(t, r.Dir, env, bin, "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	r.Git("rm", "-q", note)
	out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "Retire the quick note")
	if ok || !strings.Contains(out, "error smp/append-only") || !strings.Contains(out, trailerAdvice) {
		t.Fatalf("a retirement without the trailer went through, or the refusal does not name it:\n%s", out)
	}
	agent := "Small-Rewrite: superseded\nCo-Authored-By: Claude <noreply@anthropic.com>"
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "Retire the quick note", "-m", agent); ok || !strings.Contains(out, "Small-Rewrite: superseded is not enough") {
		t.Fatalf("an agent retired an artifact:\n%s", out)
	}
	out, ok = runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "Retire the quick note", "-m", "Small-Rewrite: superseded")
	if !ok || !strings.Contains(out, "warning smp/append-only") || !strings.Contains(out, note+" was deleted") {
		t.Fatalf("a human could not retire an artifact with the trailer:\n%s", out)
	}
	if code, out, _ := r.check(nil, "check", "--base", base); code != exitOK || !strings.Contains(out, "Small-Rewrite: superseded]") {
		t.Fatalf("the range check refuses the retirement: exit %d\n%s", code, out)
	}

	// The source of a merge stays.
	source := "artifacts/transformer-analysis.md"
	r.Write(source, strings.ReplaceAll(smpFixture(t, "quick-note.anonymous.md"), "quick-note", "transformer-analysis"))
	r.Write(artifactPath, smpFixture(t, "llm-context-research.v4-merged.md"))
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "Merge transformer-analysis")
	r.Git("rm", "-q", source)
	out, ok = runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "Retire the merged source", "-m", "Small-Rewrite: merged")
	if ok || !strings.Contains(out, artifactPath+" records a merge from it") {
		t.Fatalf("the source of a recorded merge was deleted:\n%s", out)
	}
}

// TestPreCommitStageDefersOnlyInsideACommit: with small-hook's hooks
// installed, the pre-commit stage leaves a rewrite to the commit-msg stage
// when it runs inside `git commit` (GIT_INDEX_FILE set), and reports it,
// naming the trailer, when run by hand.
func TestPreCommitStageDefersOnlyInsideACommit(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	bin, env := withBinary(t)
	if out, ok := runIn(t, r.Dir, env, bin, "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	rewriteProgress(r)
	r.Git("add", "-A")
	if code, out, _ := r.check(map[string]string{"GIT_INDEX_FILE": ".git/index"}, "check"); code != exitOK || strings.Contains(out, "small/append-only") {
		t.Fatalf("inside a commit: exit %d, want the rewrite left to the commit-msg stage\n%s", code, out)
	}
	code, out, _ := r.check(nil, "check")
	if code != exitFindings || !strings.Contains(out, trailerAdvice) || strings.Contains(out, "SMALL_HOOK_REWRITE") {
		t.Fatalf("by hand: exit %d, want the rewrite reported with the trailer's advice\n%s", code, out)
	}
}
