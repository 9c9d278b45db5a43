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
	for _, l := range strings.Split(r.read(intentPath), "\n") {
		if strings.HasPrefix(l, "intent: ") {
			l = "intent: " + text
		}
		lines = append(lines, l)
	}
	r.write(intentPath, strings.Join(lines, "\n"))
}

// commitAs commits everything with the given author and message.
func commitAs(r *testRepo, name, email, msg string) string {
	r.git("add", "-A")
	r.gitEnv([]string{"GIT_AUTHOR_NAME=" + name, "GIT_AUTHOR_EMAIL=" + email}, "commit", "-q", "--no-verify", "-m", msg)
	return r.git("rev-parse", "HEAD")
}

func TestAgentMarkersOnIntentFail(t *testing.T) {
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
		{"human override", "Cursor Agent", "cursoragent@cursor.com", "Refine intent\n\nSmall-Actor: human", false},
		{"trailer in the body is not a trailer", "Test Human", "human@example.com", "Refine intent\n\nAssisted-by: nobody, this is prose\nand more prose that is not a trailer.", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := workspaceRepo(t)
			base := r.git("rev-parse", "HEAD")
			editIntent(r, "Changed by "+tc.name)
			sha := commitAs(r, tc.author, tc.email, tc.msg)
			code, out, errOut := r.check(nil, "check", "--base", base, "--format", "json")
			rep := decodeReport(t, out)
			failed := contains(rulesOf(rep), "small/ownership")
			if failed != tc.fails || (tc.fails && code != exitFindings) || (!tc.fails && code != exitOK) {
				t.Fatalf("exit %d, ownership finding %v, want %v\n%s%s", code, failed, tc.fails, out, errOut)
			}
			if tc.fails && (rep.Findings[0].Commit != sha || !strings.Contains(rep.Findings[0].Message, "agent-authored")) {
				t.Errorf("finding does not name the commit and evidence: %+v", rep.Findings[0])
			}
		})
	}
}

func TestRangeReportsExactlyTheAgentCommitsOnHumanFiles(t *testing.T) {
	r := workspaceRepo(t)
	base := r.git("rev-parse", "HEAD")
	editIntent(r, "human one")
	commitAs(r, "Test Human", "human@example.com", "human edits intent")
	r.write(progressPath, r.read(progressPath)+appendedEntry)
	commitAs(r, "Test Human", "human@example.com", "agent progress\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	editIntent(r, "agent one")
	bad1 := commitAs(r, "Test Human", "human@example.com", "agent edits intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	r.write(".small/constraints.small.yml", r.read(".small/constraints.small.yml")+"  - id: \"more\"\n    rule: \"More\"\n    severity: \"warn\"\n")
	bad2 := commitAs(r, "Cursor Agent", "cursoragent@cursor.com", "agent edits constraints")
	_, out, _ := r.check(nil, "check", "--base", base, "--format", "json")
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
	r.git("add", "-A")
	msg := filepath.Join(t.TempDir(), "COMMIT_EDITMSG")
	os.WriteFile(msg, []byte("Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n# Please enter the commit message\n"), 0o644)
	if code, out, _ := r.check(nil, "check"); code != exitOK {
		t.Fatalf("pre-commit stage must leave ownership to commit-msg: exit %d\n%s", code, out)
	}
	if code, out, _ := r.check(nil, "check", "--commit-msg", msg); code != exitFindings || !strings.Contains(out, "small/ownership") {
		t.Fatalf("commit-msg stage: exit %d\n%s", code, out)
	}
	if code, out, _ := r.check(map[string]string{"SMALL_HOOK_ACTOR": "agent"}, "check"); code != exitFindings {
		t.Fatalf("SMALL_HOOK_ACTOR=agent in the pre-commit stage: exit %d\n%s", code, out)
	}
	os.WriteFile(msg, []byte("Refine intent\n"), 0o644)
	agent := map[string]string{"GIT_AUTHOR_NAME": "Cursor Agent", "GIT_AUTHOR_EMAIL": "cursoragent@cursor.com"}
	if code, out, _ := r.check(agent, "check", "--commit-msg", msg); code != exitFindings {
		t.Fatalf("agent author identity from GIT_AUTHOR_*: exit %d\n%s", code, out)
	}
}

func TestConfiguredAgentsAndBadConfig(t *testing.T) {
	r := workspaceRepo(t)
	r.write(".small-hook.yml", "attribution:\n  agents:\n    - email: \"*@bots.corp.example\"\n    - name: \"*[bot]\"\n  trailers: [X-Agent]\n")
	base := r.commit("config")
	editIntent(r, "bot one")
	commitAs(r, "Corp Bot", "ci@bots.corp.example", "bot edit")
	editIntent(r, "bot two")
	commitAs(r, "renovate[bot]", "renovate@example.com", "bot edit")
	editIntent(r, "bot three")
	commitAs(r, "Test Human", "human@example.com", "edit\n\nX-Agent: yes")
	editIntent(r, "not a bot")
	commitAs(r, "Rob", "rob@example.com", "edit by a human named Rob")
	_, out, _ := r.check(nil, "check", "--base", base, "--format", "json")
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
		r.write(".small-hook.yml", bad)
		r.git("add", "-A")
		code, _, errOut := r.check(nil, "check")
		if code != exitFailure || !strings.Contains(errOut, ".small-hook.yml:") {
			t.Errorf("config %q: exit %d, stderr %q", bad, code, errOut)
		}
	}
}

func TestUnknownActorPolicy(t *testing.T) {
	r := workspaceRepo(t)
	r.write(".small-hook.yml", "attribution:\n  unknown: error\n")
	base := r.commit("config")
	r.write(progressPath, r.read(progressPath)+appendedEntry)
	commitAs(r, "Test Human", "human@example.com", "progress")
	if code, out, _ := r.check(nil, "check", "--base", base); code != exitFindings || !strings.Contains(out, "attribution/unknown") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

func TestProvenanceUnderAnotherAgent(t *testing.T) {
	r, base := smpRepo(t)
	v3 := smpFixture(t, "llm-context-research.v3.md")
	entry := func(agent string) string {
		return strings.Replace(strings.Replace(v3, "version: 3", "version: 4", 1), "\n---\n\n# LLM",
			"\n  - agent: '"+agent+"'\n    action: updated\n    timestamp: '2026-11-22T10:09:09.000Z'\n---\n\n# LLM", 1) + "\nMore.\n"
	}
	r.write(artifactPath, entry("did:key:z6MkSomebodyElseEntirely"))
	commitAs(r, "Test Human", "human@example.com", "update\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	_, out, _ := r.check(nil, "check", "--base", base, "--format", "json")
	if !strings.Contains(out, `"rule": "smp/attribution"`) {
		t.Fatalf("no smp/attribution warning:\n%s", out)
	}
	r.git("reset", "-q", "--hard", "HEAD~1")
	r.write(artifactPath, entry("did:key:z6MkvmWSVtpUTrKQSvt95G8yLfAWxCUq4w2grS9PEUyRLndW"))
	commitAs(r, "Test Human", "human@example.com", "update\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	if _, out, _ := r.check(nil, "check", "--base", base, "--format", "json"); strings.Contains(out, "smp/attribution") {
		t.Fatalf("an author's entry was reported:\n%s", out)
	}
}
