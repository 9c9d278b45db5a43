package main

import (
	"os"
	"path/filepath"
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
		os.Remove(filepath.Join(r.dir, "artifacts", name))
	}
	r.commit("artifacts")
	r.write(progressPath, r.read(progressPath)+strings.Replace(appendedEntry, "go vet ./... is clean", "deployed with "+fakeAWS, 1))
	r.write(".small/plan.small.yml", r.read(".small/plan.small.yml")+"    - id: task-4\n      title: post to "+fakeSlack+"\n")
	r.write(".small/intent.small.yml", strings.Replace(r.read(".small/intent.small.yml"), "Conformance test workspace", "Charge cards with "+fakeStripe, 1))
	r.write("artifacts/llm-context-research.v1.md", r.read("artifacts/llm-context-research.v1.md")+"\n  - db_password: "+fakePass+"\n\npushed with "+fakeGitHub+"\n")
	r.write(".awp/private-key.pem", fakeKey)
	r.git("add", "-A")
	return r
}

func TestSecretsAreCaughtAndNeverPrinted(t *testing.T) {
	r := secretRepo(t)
	code, out, errOut := r.check(nil, "check", "--format", "json")
	if code != exitFindings {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	want := map[string]string{
		".small/progress.small.yml:secrets/aws-access-token":           "",
		".small/plan.small.yml:secrets/slack-bot-token":                "",
		".small/intent.small.yml:secrets/stripe-access-token":          "",
		"artifacts/llm-context-research.v1.md:secrets/generic-api-key": "",
		"artifacts/llm-context-research.v1.md:secrets/github-pat":      "",
		".awp/private-key.pem:secrets/private-key":                     "",
	}
	for _, f := range decodeReport(t, out).Findings {
		key := f.Path + ":" + f.Rule
		if _, ok := want[key]; ok && f.Line > 0 {
			delete(want, key)
		}
	}
	if len(want) > 0 {
		t.Errorf("not reported with a line: %v\n%s", want, out)
	}
	outputs := filepath.Join(t.TempDir(), "out")
	for _, format := range []string{"text", "json", "sarif", "github"} {
		summary := outputs + "-summary.md"
		_, out, errOut := r.check(map[string]string{"GITHUB_STEP_SUMMARY": summary}, "check", "--format", format, "--output", "sarif="+outputs+".sarif")
		md, _ := os.ReadFile(summary)
		sarif, _ := os.ReadFile(outputs + ".sarif")
		all := out + errOut + string(md) + string(sarif)
		for _, secret := range []string{fakeAWS, fakeGitHub, fakeStripe, fakeSlack, fakePass, keyBody[:40]} {
			if strings.Contains(all, secret) {
				t.Errorf("--format %s printed a secret", format)
			}
		}
	}
}

func TestSecretAlreadyInHeadIsNotReportedAgain(t *testing.T) {
	r := workspaceRepo(t)
	r.write(".small/plan.small.yml", r.read(".small/plan.small.yml")+"    - id: task-4\n      title: post to "+fakeSlack+"\n")
	r.git("add", "-A")
	r.git("commit", "-q", "--no-verify", "-m", "leak")
	r.write(progressPath, r.read(progressPath)+appendedEntry)
	r.write(".small/plan.small.yml", r.read(".small/plan.small.yml")+"    - id: task-5\n      title: more\n")
	r.git("add", "-A")
	if code, out, _ := r.check(nil, "check"); code != exitOK {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if code, out, _ := r.check(nil, "check", "--all"); code != exitFindings || !strings.Contains(out, "secrets/slack-bot-token") {
		t.Fatalf("--all: exit %d\n%s", code, out)
	}
}
