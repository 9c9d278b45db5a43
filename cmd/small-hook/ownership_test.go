package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const intentPath = ".small/intent.small.yml"

// editIntent changes the human-owned intent.
func editIntent(r *testRepo, text string) {
	var lines []string
	for _, l := range strings.Split(r.Read(intentPath), "\n") {
		if strings.HasPrefix(l, "intent: ") {
			l = "intent: " + text
		}
		lines = append(lines, l)
	}
	r.Write(intentPath, strings.Join(lines, "\n"))
}

// writeMessage writes a commit message file.
func writeMessage(t *testing.T, path, msg string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(msg), 0o644); err != nil {
		t.Fatal(err)
	}
}

// commitAs commits everything with the given author and message.
func commitAs(r *testRepo, name, email, msg string) string {
	r.Git("add", "-A")
	r.GitEnv([]string{"GIT_AUTHOR_NAME=" + name, "GIT_AUTHOR_EMAIL=" + email}, "commit", "-q", "--no-verify", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}

func TestAgentMarkersOnIntentFail(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, author, email, msg string
		fails                    bool
	}{
		{"human", "Test Human", "human@example.com", "Refine intent", false},
		{"claude trailer", "Test Human", "human@example.com", "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>", true},
		{"aider co-author", "Test Human", "human@example.com", "Refine intent\n\nCo-authored-by: aider (gpt-4o) <aider@aider.chat>", true},
		{"aider author", "Test Human (aider)", "human@example.com", "Refine intent", true},
		{"copilot author", "Copilot", "198982749+Copilot@users.noreply.github.com", "Refine intent", true},
		{"cursor author", "Cursor Agent", "cursoragent@cursor.com", "Refine intent", true},
		{"assisted-by", "Test Human", "human@example.com", "Refine intent\n\nAssisted-by: claude:opus", true},
		{"generated-by", "Test Human", "human@example.com", "Refine intent\n\nGenerated-By: some-agent", true},
		{"codex co-author", "Test Human", "human@example.com", "Refine intent\n\nCo-authored-by: Codex <codex@openai.com>", true},
		{"codex co-author as the CLI writes it", "Test Human", "human@example.com", "Refine intent\n\nCo-authored-by: Codex <noreply@openai.com>", true},
		{"opencode co-author", "Test Human", "human@example.com", "Refine intent\n\nCo-Authored-By: opencode <noreply@opencode.ai>", true},
		{"openhands author", "openhands", "openhands@all-hands.dev", "Refine intent", true},
		{"co-authored-by-ai", "Test Human", "human@example.com", "Refine intent\n\nCo-authored-by-AI: GitHub Copilot (gpt-4.1)", true},
		{"ai-assisted-by", "Test Human", "human@example.com", "Refine intent\n\nAI-Assisted-By: Claude Code", true},
		{"an agent author claiming Small-Actor: human", "Cursor Agent", "cursoragent@cursor.com", "Refine intent\n\nSmall-Actor: human", true},
		{"a Claude co-author claiming Small-Actor: human", "Test Human", "human@example.com", "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nSmall-Actor: human", true},
		{"a human claim on a human commit", "Test Human", "human@example.com", "Refine intent\n\nSmall-Actor: human", false},
		{"trailer in the body is not a trailer", "Test Human", "human@example.com", "Refine intent\n\nAssisted-by: nobody, this is prose\nand more prose that is not a trailer.", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := workspaceRepo(t)
			base := r.Git("rev-parse", "HEAD")
			editIntent(r, "Changed by "+strings.ReplaceAll(tc.name, ":", ""))
			sha := commitAs(r, tc.author, tc.email, tc.msg)
			code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
			rep := decodeReport(t, out)
			if !tc.fails {
				if code != exitOK || len(rep.Findings) != 0 {
					t.Fatalf("a human edit of the intent: exit %d, want %d and no findings\n%s%s", code, exitOK, out, errOut)
				}
				return
			}
			if code != exitFindings || len(rep.Findings) != 1 {
				t.Fatalf("exit %d with %d findings, want %d and exactly the ownership error\n%s%s", code, len(rep.Findings), exitFindings, out, errOut)
			}
			f := rep.Findings[0]
			if f.Rule != "small/ownership" || f.Severity != "error" || f.Path != intentPath || f.Commit != sha || !strings.Contains(f.Message, "agent-authored") {
				t.Errorf("the finding is not the ownership error on %s naming commit %s and its evidence: %+v", intentPath, sha, f)
			}
		})
	}
}

func TestRangeReportsExactlyTheAgentCommitsOnHumanFiles(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	base := r.Git("rev-parse", "HEAD")
	editIntent(r, "human one")
	commitAs(r, "Test Human", "human@example.com", "human edits intent")
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	commitAs(r, "Test Human", "human@example.com", "agent progress\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	editIntent(r, "agent one")
	bad1 := commitAs(r, "Test Human", "human@example.com", "agent edits intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	r.Write(".small/constraints.small.yml", r.Read(".small/constraints.small.yml")+"  - id: \"more\"\n    rule: \"More\"\n    severity: \"warn\"\n")
	bad2 := commitAs(r, "Cursor Agent", "cursoragent@cursor.com", "agent edits constraints")
	code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
	if code != exitFindings {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFindings, out, errOut)
	}
	var got []string
	for _, f := range decodeReport(t, out).Findings {
		if f.Rule == "small/ownership" && f.Severity == "error" {
			got = append(got, f.Commit)
		}
	}
	if strings.Join(got, ",") != bad2+","+bad1 && strings.Join(got, ",") != bad1+","+bad2 {
		t.Fatalf("ownership errors on %v, want exactly %s and %s\n%s", got, bad1, bad2, out)
	}
}

func TestCommitMsgStage(t *testing.T) {
	r := workspaceRepo(t)
	editIntent(r, "staged by an agent")
	r.Git("add", "-A")
	msg := filepath.Join(t.TempDir(), "COMMIT_EDITMSG")
	writeMessage(t, msg, "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n# Please enter the commit message\n")
	if code, out, _ := r.check(nil, "check"); code != exitOK {
		t.Fatalf("pre-commit stage must leave ownership to commit-msg: exit %d\n%s", code, out)
	}
	if code, out, _ := r.check(nil, "check", "--commit-msg", msg); code != exitFindings || !strings.Contains(out, "small/ownership") {
		t.Fatalf("commit-msg stage: exit %d\n%s", code, out)
	}
	if code, out, _ := r.check(map[string]string{"SMALL_HOOK_ACTOR": "agent"}, "check"); code != exitFindings {
		t.Fatalf("SMALL_HOOK_ACTOR=agent in the pre-commit stage: exit %d\n%s", code, out)
	}
	writeMessage(t, msg, "Refine intent\n")
	agent := map[string]string{"GIT_AUTHOR_NAME": "Cursor Agent", "GIT_AUTHOR_EMAIL": "cursoragent@cursor.com"}
	if code, out, _ := r.check(agent, "check", "--commit-msg", msg); code != exitFindings {
		t.Fatalf("agent author identity from GIT_AUTHOR_*: exit %d\n%s", code, out)
	}
}

func TestConfiguredAgentsAndBadConfig(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", "attribution:\n  agents:\n    - email: \"*@bots.corp.example\"\n    - name: \"*[bot]\"\n  trailers: [X-Agent]\n")
	base := r.Commit("config")
	editIntent(r, "bot one")
	commitAs(r, "Corp Bot", "ci@bots.corp.example", "bot edit")
	editIntent(r, "bot two")
	commitAs(r, "renovate[bot]", "renovate@example.com", "bot edit")
	editIntent(r, "bot three")
	commitAs(r, "Test Human", "human@example.com", "edit\n\nX-Agent: yes")
	editIntent(r, "not a bot")
	commitAs(r, "Rob", "rob@example.com", "edit by a human named Rob")
	code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
	if code != exitFindings {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFindings, out, errOut)
	}
	n := 0
	for _, f := range decodeReport(t, out).Findings {
		if f.Rule == "small/ownership" && f.Severity == "error" {
			n++
		}
	}
	if n != 3 {
		t.Fatalf("%d ownership errors, want 3\n%s", n, out)
	}
	for _, bad := range []string{"attribution:\n  agentz: []\n", "attribution:\n  unknown: maybe\n", "attribution: [\n", "secrets:\n  scope: all\n"} {
		r.Write(".small-hook.yml", bad)
		r.Git("add", "-A")
		code, _, errOut := r.check(nil, "check")
		if code != exitFailure || !strings.Contains(errOut, ".small-hook.yml:") {
			t.Errorf("config %q: exit %d, stderr %q", bad, code, errOut)
		}
	}
}

func TestUnknownActorPolicy(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", "attribution:\n  unknown: error\n")
	base := r.Commit("config")
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	commitAs(r, "Test Human", "human@example.com", "progress")
	if code, out, _ := r.check(nil, "check", "--base", base); code != exitFindings || !strings.Contains(out, "attribution/unknown") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestProvenanceUnderAnotherAgent(t *testing.T) {
	t.Parallel()
	r, base := smpRepo(t)
	v3 := smpFixture(t, "llm-context-research.v3.md")
	entry := func(agent string) string {
		return strings.Replace(strings.Replace(v3, "version: 3", "version: 4", 1), "\n---\n\n# LLM",
			"\n  - agent: '"+agent+"'\n    action: updated\n    timestamp: '2026-11-22T10:09:09.000Z'\n---\n\n# LLM", 1) + "\nMore.\n"
	}
	r.Write(artifactPath, entry("did:key:z6MkSomebodyElseEntirely"))
	commitAs(r, "Test Human", "human@example.com", "update\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
	rep := decodeReport(t, out)
	if code != exitOK || len(rep.Findings) != 1 || rep.Findings[0].Rule != "smp/attribution" || rep.Findings[0].Severity != "warning" {
		t.Fatalf("exit %d, want %d with exactly the smp/attribution warning\n%s%s", code, exitOK, out, errOut)
	}
	r.Git("reset", "-q", "--hard", "HEAD~1")
	r.Write(artifactPath, entry("did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW"))
	commitAs(r, "Test Human", "human@example.com", "update\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	code, out, errOut = r.check(nil, "check", "--base", base, "--format", "json")
	if code != exitOK || len(decodeReport(t, out).Findings) != 0 {
		t.Fatalf("an author's entry: exit %d, want %d and no findings\n%s%s", code, exitOK, out, errOut)
	}
}
