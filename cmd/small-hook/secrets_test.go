package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Fake secrets, assembled at run time so the repository never holds one.
var (
	fakeAWS    = "AKIA" + "Z7QF4M2XK6PLR3TB"
	fakeGitHub = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	fakeStripe = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc9Xk2"
	fakeSlack  = "xoxb-" + "1234567890123-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	fakePass   = "Tr0ub4dor3xq9" + "Lm2vB7zQ"
	keyBody    = "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u"
	fakeKey    = "-----BEGIN " + "RSA PRIVATE KEY-----\n" + keyBody + "\n-----END " + "RSA PRIVATE KEY-----\n"
)

// secretRepo stages secrets in every kind of governed file.
func secretRepo(t *testing.T) *testRepo {
	r := workspaceRepo(t)
	r.copyDir("../../testdata/smp", "artifacts")
	for _, name := range []string{"llm-context-research.v2.md", "llm-context-research.v3.md", "llm-context-research.v4-merged.md"} {
		r.Remove("artifacts/" + name)
	}
	r.Write(".awp/workspace.json", "{}") // an AWP workspace: awp writes its key in .awp/
	r.Commit("artifacts")
	r.Write(progressPath, r.Read(progressPath)+strings.Replace(appendedEntry, "go vet ./... is clean", "deployed with "+fakeAWS, 1))
	r.Write(".small/plan.small.yml", r.Read(".small/plan.small.yml")+"    - id: task-4\n      title: post to "+fakeSlack+"\n")
	r.Write(".small/intent.small.yml", strings.Replace(r.Read(".small/intent.small.yml"), "Conformance test workspace", "Charge cards with "+fakeStripe, 1))
	r.Write("artifacts/llm-context-research.v1.md", r.Read("artifacts/llm-context-research.v1.md")+"\n  - db_password: "+fakePass+"\n\npushed with "+fakeGitHub+"\n")
	r.Write(".awp/private-key.pem", fakeKey)
	r.Git("add", "-A")
	return r
}

func TestSecretsAreCaughtAndNeverPrinted(t *testing.T) {
	t.Parallel()
	r := secretRepo(t)
	code, out, errOut := r.check(nil, "check", "--format", "json")
	if code != exitFindings {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	want := []string{
		".small/progress.small.yml:secrets/aws-access-token",
		".small/plan.small.yml:secrets/slack-bot-token",
		".small/intent.small.yml:secrets/stripe-access-token",
		"artifacts/llm-context-research.v1.md:secrets/generic-api-key",
		"artifacts/llm-context-research.v1.md:secrets/github-pat",
		".awp/private-key.pem:secrets/private-key",
	}
	reported := map[string]bool{}
	for _, f := range decodeReport(t, out).Findings {
		if f.Line > 0 {
			reported[f.Path+":"+f.Rule] = true
		}
	}
	for _, key := range want {
		if !reported[key] {
			t.Errorf("%s is not reported with a line:\n%s", key, out)
		}
	}
	formats := []string{"text", "json", "sarif", "github"}
	secrets := []string{fakeAWS, fakeGitHub, fakeStripe, fakeSlack, fakePass, keyBody[:40]}
	for _, format := range formats {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			summary := filepath.Join(dir, "summary.md")
			args := []string{"check", "--format", format}
			for _, f := range formats {
				args = append(args, "--output", f+"="+filepath.Join(dir, "out."+f))
			}
			code, out, errOut := r.check(map[string]string{"GITHUB_STEP_SUMMARY": summary}, args...)
			if code != exitFindings {
				t.Fatalf("exit %d, want %d\n%s%s", code, exitFindings, out, errOut)
			}
			written := map[string]string{"stdout": out, "stderr": errOut}
			files := []string{"out.text", "out.json", "out.sarif", "out.github"}
			if format == "github" {
				files = append(files, "summary.md")
			}
			for _, name := range files {
				written[name] = readFile(t, filepath.Join(dir, name))
			}
			for name, text := range written {
				if name != "stderr" {
					for _, key := range want {
						if _, id, _ := strings.Cut(key, ":"); !strings.Contains(text, id) {
							t.Errorf("%s lacks the finding %s:\n%s", name, id, text)
						}
					}
				}
				for _, secret := range secrets {
					if strings.Contains(text, secret) {
						t.Errorf("%s printed the secret %.4s… in full", name, secret)
					}
				}
			}
		})
	}
}

func TestSecretAlreadyInHeadIsNotReportedAgain(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	r.Write(".small/plan.small.yml", r.Read(".small/plan.small.yml")+"    - id: task-4\n      title: post to "+fakeSlack+"\n")
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "leak")
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Write(".small/plan.small.yml", r.Read(".small/plan.small.yml")+"    - id: task-5\n      title: more\n")
	r.Git("add", "-A")
	if code, out, _ := r.check(nil, "check"); code != exitOK {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if code, out, _ := r.check(nil, "check", "--all"); code != exitFindings || !strings.Contains(out, "secrets/slack-bot-token") {
		t.Fatalf("--all: exit %d\n%s", code, out)
	}
}

// stageLink stages a symbolic link at path to target, as git stores it (a
// blob of mode 120000), whatever links the file system supports.
func stageLink(r *testRepo, path, target string) {
	blob := r.GitInput(target, "hash-object", "-w", "--stdin")
	r.Git("update-index", "--add", "--cacheinfo", "120000,"+blob+","+path)
}

// TestTokensAsSymlinkTargetsAreCaught: a symbolic link whose target is a
// token, in artifacts/, .awp/ and .small/ext/ of governed workspaces, is
// reported staged, in a range and with --all (git stores the target as a
// blob and every checkout writes it), and the token is never printed.
func TestTokensAsSymlinkTargetsAreCaught(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	r.Write(".awp/workspace.json", "{}\n")
	base := r.Commit("an AWP workspace")
	links := []string{"artifacts/deploy-token", ".awp/token", ".small/ext/token"}
	for _, link := range links {
		stageLink(r, link, fakeGitHub)
	}
	for _, args := range [][]string{{"check"}, {"check", "--base", base}, {"check", "--all"}} {
		if slices.Contains(args, "--base") {
			r.Git("commit", "-q", "--no-verify", "-m", "links")
		}
		code, out := everyOutput(t, r, args...)
		if code != exitFindings {
			t.Fatalf("%v: exit %d\n%s", args, code, out)
		}
		// Read by git itself, the links are the same blobs.
		if c, byGit, _ := r.check(map[string]string{"SMALL_HOOK_READER": "git"}, args...); c != exitFindings || strings.Count(byGit, ":1: error secrets/github-pat") != len(links) {
			t.Errorf("%v, read by git: exit %d\n%s", args, c, byGit)
		}
		for _, link := range links {
			if want := link + ":1: error secrets/github-pat"; !strings.Contains(out, want) {
				t.Errorf("%v: %q is not reported:\n%s", args, want, out)
			}
		}
		if p := pieceOf(out, fakeGitHub); p != "" {
			t.Errorf("%v: the output holds %q", args, p)
		}
	}
}

// TestTokensSplitByMarkupAreCaught: a token in an artifact's body split by
// markup no Markdown view shows (an HTML comment, here across lines, an
// empty tag pair, bold) is reported at its line, staged and in a range,
// and never printed.
func TestTokensSplitByMarkupAreCaught(t *testing.T) {
	t.Parallel()
	r, _ := smpRepo(t)
	base := r.Git("rev-parse", "HEAD")
	body := "\ndeployed with " + fakeGitHub[:16] + "<!--\n-->" + fakeGitHub[16:] + " today\n" +
		"\nposted with " + fakeSlack[:12] + "<span></span>" + fakeSlack[12:] + "\n" +
		"\ncharged with " + fakeStripe[:10] + "**" + fakeStripe[10:] + "**\n"
	r.Write(artifactPath, r.Read(artifactPath)+body)
	r.Git("add", "-A")
	after := r.Read(artifactPath)
	for _, args := range [][]string{{"check"}, {"check", "--base", base}} {
		if slices.Contains(args, "--base") {
			r.Git("commit", "-q", "--no-verify", "-m", "split tokens")
		}
		code, out := everyOutput(t, r, args...)
		if code != exitFindings {
			t.Fatalf("%v: exit %d\n%s", args, code, out)
		}
		for needle, rule := range map[string]string{"<!--": "github-pat", "<span>": "slack-bot-token", "**": "stripe-access-token"} {
			line := 1 + strings.Count(after[:strings.Index(after, needle)], "\n")
			if want := fmt.Sprintf("%s:%d: error secrets/%s", artifactPath, line, rule); !strings.Contains(out, want) {
				t.Errorf("%v: %q is not reported:\n%s", args, want, out)
			}
		}
		for _, s := range []string{fakeGitHub, fakeSlack, fakeStripe} {
			if p := pieceOf(out, s); p != "" {
				t.Errorf("%v: the output holds %q", args, p)
			}
		}
	}
}

// TestAnAgentCannotSilenceItsOwnLeak: through the installed hooks, an
// agent's commit that adds a token marked gitleaks:allow is refused, and
// so is the commit in a range; each fix the message gives works: the same
// change committed by a human passes, and so does the agent's once a
// human committed the finding's fingerprint to .gitleaksignore.
func TestAnAgentCannotSilenceItsOwnLeak(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	bin, env := withBinary(t)
	if out, ok := runIn(t, r.Dir, env, bin, "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	base := r.Git("rev-parse", "HEAD")
	planPath := ".small/plan.small.yml"
	marked := r.Read(planPath) + "    - id: task-4\n      title: push with " + fakeGitHub + " # gitleaks:allow\n"
	line := strings.Count(marked, "\n")
	stage := func() {
		r.Write(planPath, marked)
		r.Git("add", "-A")
	}
	const agentMsg = "Add a task\n\nCo-Authored-By: Claude <noreply@anthropic.com>"
	stage()
	out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", agentMsg)
	if ok || !strings.Contains(out, fmt.Sprintf("%s:%d: error secrets/github-pat", planPath, line)) || !strings.Contains(out, "does not count") {
		t.Fatalf("the agent's marker silenced its leak:\n%s", out)
	}
	if p := pieceOf(out, fakeGitHub); p != "" {
		t.Errorf("the output holds %q", p)
	}
	// In a range, from the commit itself.
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "--no-verify", "-m", agentMsg); !ok {
		t.Fatal(out)
	}
	if code, out, _ := r.check(nil, "check", "--base", base); code != exitFindings || !strings.Contains(out, "does not count") {
		t.Fatalf("range: exit %d\n%s", code, out)
	}
	r.Git("reset", "-q", "--hard", base)
	// A human's commit of the same change.
	stage()
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "Add a task"); !ok {
		t.Fatalf("a human's marker did not count:\n%s", out)
	}
	if code, out, _ := r.check(nil, "check", "--base", base); code != exitOK {
		t.Fatalf("range of the human's commit: exit %d\n%s", code, out)
	}
	r.Git("reset", "-q", "--hard", base)
	// The fingerprint, committed first by a human.
	r.Write(".gitleaksignore", fmt.Sprintf("%s:github-pat:%d\n", planPath, line))
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", "A reviewed false positive"); !ok {
		t.Fatal(out)
	}
	stage()
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-m", agentMsg); !ok {
		t.Fatalf("the committed fingerprint did not suppress the finding:\n%s", out)
	}
}
