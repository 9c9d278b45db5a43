package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// longKey is a 108-character API key that gitleaks' rule only recognises
// whole and followed by a blank, a quote or the end of the text: a prefix
// of it, or the key followed by ".yml", is not recognised.
func longKey() string {
	return "sk-ant-api03-" + strings.Repeat("Zq8Lm2vB7Tr0wJalrXUtnFEM", 4)[:93] + "AA"
}

// pieceOf returns the first 12-character piece of secret that text holds,
// or "".
func pieceOf(text, secret string) string {
	for i := 0; i+12 <= len(secret); i++ {
		if strings.Contains(text, secret[i:i+12]) {
			return secret[i : i+12]
		}
	}
	return ""
}

// everyOutput runs small-hook with args in every format, each run writing
// every format to files as well (and the GitHub step summary), and returns
// the exit code and all that was written: stdout, stderr and the files.
func everyOutput(t *testing.T, r *testRepo, args ...string) (int, string) {
	t.Helper()
	formats := []string{"text", "json", "sarif", "github"}
	code := -1
	var all strings.Builder
	for _, format := range formats {
		dir := t.TempDir()
		summary := filepath.Join(dir, "summary.md")
		run := append(append([]string{}, args...), "--format", format)
		for _, f := range formats {
			run = append(run, "--output", f+"="+filepath.Join(dir, "out."+f))
		}
		c, out, errOut := r.check(map[string]string{"GITHUB_STEP_SUMMARY": summary}, run...)
		if code != -1 && c != code {
			t.Fatalf("%v: exit %d, but %d in another format", run, c, code)
		}
		code = c
		all.WriteString(out + errOut)
		for _, name := range []string{"out.text", "out.json", "out.sarif", "out.github", "summary.md"} {
			if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				all.Write(data)
			}
		}
	}
	return code, all.String()
}

// TestClippedEchoesOfASecretAreRedacted: values from a commit message that
// a verdict echoes cut short (a co-author, a Small-Rewrite reason, a bad
// Small-Actor value) never print a piece of a secret, in any format, in
// the commit-msg stage and in a range, on stdout, stderr and in files.
func TestClippedEchoesOfASecretAreRedacted(t *testing.T) {
	key := longKey()
	cases := []struct {
		name   string
		change func(r *testRepo)
		msg    string
		code   int
	}{
		{"a co-author named by the key", func(r *testRepo) { editIntent(r, "rewritten") },
			"Refine intent\n\nCo-authored-by: " + key + " <noreply@anthropic.com>\n", exitFindings},
		{"a Small-Rewrite reason", rewriteProgress,
			"Rewrite progress\n\nSmall-Rewrite: " + key + "\n", exitOK},
		{"a Small-Actor value", func(r *testRepo) { r.Write(progressPath, r.Read(progressPath)+appendedEntry) },
			"Record progress\n\nSmall-Actor: " + key + "\n", exitFailure},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := workspaceRepo(t)
			base := r.Git("rev-parse", "HEAD")
			tc.change(r)
			r.Git("add", "-A")
			msg := messageFile(t, tc.msg)
			code, out := everyOutput(t, r, "check", "--commit-msg", msg)
			if code != tc.code {
				t.Fatalf("commit-msg stage: exit %d, want %d\n%s", code, tc.code, out)
			}
			if p := pieceOf(out, key); p != "" || !strings.Contains(out, "[REDACTED sk-a…(108 chars)]") {
				t.Errorf("commit-msg stage: the output holds %q, or does not show the echo redacted:\n%s", p, out)
			}
			r.Git("commit", "-q", "--no-verify", "-F", msg)
			code, out = everyOutput(t, r, "check", "--base", base)
			if code != tc.code {
				t.Fatalf("range: exit %d, want %d\n%s", code, tc.code, out)
			}
			if p := pieceOf(out, key); p != "" || !strings.Contains(out, "[REDACTED sk-a…(108 chars)]") {
				t.Errorf("range: the output holds %q, or does not show the echo redacted:\n%s", p, out)
			}
		})
	}
}

// TestSecretsInPathsAndConfigurationErrorsAreRedacted: a governed file
// named after a key and a broken .gitleaks.toml that holds one print
// neither in any format, nor in the error of a check that cannot run.
func TestSecretsInPathsAndConfigurationErrorsAreRedacted(t *testing.T) {
	key := longKey()
	t.Run("a file name", func(t *testing.T) {
		r := workspaceRepo(t)
		base := r.Git("rev-parse", "HEAD")
		r.Write(".small/"+key+".yml", "notes: x\n")
		r.Git("add", "-A")
		for _, args := range [][]string{{"check"}, {"check", "--all"}} {
			code, out := everyOutput(t, r, args...)
			if code != exitFindings {
				t.Fatalf("%v: exit %d\n%s", args, code, out)
			}
			if p := pieceOf(out, key); p != "" || !strings.Contains(out, "[REDACTED sk-a…(108 chars)]") {
				t.Errorf("%v: the output holds %q, or does not show the path redacted:\n%s", args, p, out)
			}
		}
		r.Commit("notes")
		code, out := everyOutput(t, r, "check", "--base", base)
		if p := pieceOf(out, key); code != exitFindings || p != "" {
			t.Errorf("range: exit %d, the output holds %q:\n%s", code, p, out)
		}
	})
}

// TestEscapedSecretsAreCaughtAndNeverPrinted: secrets written with JSON
// escapes in .awp/ and with character references in an artifact's body
// are reported in every format, and never printed, whole or in part.
func TestEscapedSecretsAreCaughtAndNeverPrinted(t *testing.T) {
	r, _ := smpRepo(t)
	r.Write(".awp/workspace.json", "{\n  \"name\": \"research\",\n  \"token\": \"\\u0067"+fakeGitHub[1:]+"\"\n}\n")
	r.Write(artifactPath, r.Read(artifactPath)+"\ndeployed with &#x41;"+fakeAWS[1:]+" today\n")
	r.Git("add", "-A")
	code, out := everyOutput(t, r, "check")
	if code != exitFindings || !strings.Contains(out, "secrets/github-pat") || !strings.Contains(out, "secrets/aws-access-token") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, s := range []string{fakeGitHub, fakeAWS} {
		if p := pieceOf(out, s); p != "" {
			t.Errorf("the output holds %q", p)
		}
	}
}

// TestABrokenAllowlistHoldingAKeyIsRedacted: a committed .gitleaks.toml
// whose allowlist regular expression holds a key and does not compile
// stops a range check that has content to scan (exit 2), and the error
// names the file without the key.
func TestABrokenAllowlistHoldingAKeyIsRedacted(t *testing.T) {
	key := longKey()
	r := workspaceRepo(t)
	r.Write(".gitleaks.toml", "[extend]\nuseDefault = true\n\n[[allowlists]]\nregexes = ['''(?i)("+key+"|x(''']\n")
	base := r.Commit("a broken allowlist")
	stageSecret(r)
	r.Commit("progress")
	code, out := everyOutput(t, r, "check", "--base", base)
	if code != exitFailure || !strings.Contains(out, "the .gitleaks.toml of "+base) {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if p := pieceOf(out, key); p != "" {
		t.Errorf("the error holds %q:\n%s", p, out)
	}
}

// TestAnOldSecretEchoedCutShortIsRedacted: a key committed before (past
// the hooks) that a rule now echoes cut short, from the old version the
// run does not scan, prints no piece of the key in any format.
func TestAnOldSecretEchoedCutShortIsRedacted(t *testing.T) {
	key := longKey()
	r := newTestRepo(t)
	v1 := smpFixture(t, "llm-context-research.v1.md")
	r.Write(artifactPath, strings.Replace(v1, "id: 'artifact:llm-context-research'", "id: 'artifact:"+key+"'", 1))
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "an id that holds a key")
	base := r.Git("rev-parse", "HEAD")
	r.Write(artifactPath, v1)
	r.Git("add", "-A")
	code, out := everyOutput(t, r, "check")
	if code != exitFindings || !strings.Contains(out, "smp/id") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if p := pieceOf(out, key); p != "" {
		t.Errorf("the output holds %q:\n%s", p, out)
	}
	r.Commit("fix the id")
	code, out = everyOutput(t, r, "check", "--base", base)
	if p := pieceOf(out, key); code != exitFindings || p != "" {
		t.Errorf("range: exit %d, the output holds %q:\n%s", code, p, out)
	}
}

// TestAKeyInAGovernedFileNamedLikeADocumentIsFound: gitleaks' built-in
// path allowlist skips documents and dependency folders, but a file of a
// governed workspace is judged whatever its name: an agent that hides a
// token in .awp/notes.pdf or .awp/node_modules/x.md is refused.
func TestAKeyInAGovernedFileNamedLikeADocumentIsFound(t *testing.T) {
	r, _ := smpRepo(t)
	r.Write(".awp/workspace.json", "{}\n")
	r.Commit("the AWP workspace")
	for _, path := range []string{".awp/notes.pdf", ".awp/node_modules/x.md"} {
		r.Write(path, "token: "+fakeGitHub+"\n")
	}
	r.Git("add", "-A")
	code, out := everyOutput(t, r, "check")
	if code != exitFindings || strings.Count(out, "secrets/github-pat: possible secret") < 2 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if p := pieceOf(out, fakeGitHub); p != "" {
		t.Errorf("the output holds %q", p)
	}
}
