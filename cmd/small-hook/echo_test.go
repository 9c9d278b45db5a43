package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// echoSecrets are secrets gitleaks recognises by their form alone, built
// at run time, one for every field a rule can repeat in a message.
func echoSecrets() map[string]string {
	return map[string]string{
		"version":   "AKIA" + "Q3VZ7WXK2MPLR6TA",
		"task":      "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe9Dc8",
		"handoff":   "xoxb-" + "2234567890123-2234567890123-ZbCdEfGhIjKlMnOpQrStUvWx",
		"replay":    "sk_live_" + "5fD40IrMzkXEbsuU2aeq0ed0aYl3",
		"key":       "ghp_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2",
		"timestamp": "AKIA" + "J7WXK2MPLQ3VZR5T",
		"trailer":   "ghp_" + "Qq1Ww2Ee3Rr4Tt5Yy6Uu7Ii8Oo9Pp0Aa1Ss2",
		"reason":    "xoxb-" + "3234567890123-3234567890123-QbCdEfGhIjKlMnOpQrStUvWx",
		"artifact":  "AKIA" + "M2XK6PLR3TBZ7QF4",
	}
}

// echoRepo commits a workspace and an artifact, then stages changes that
// put each secret where a rule repeats it: small_version, a task id named
// by the handoff and by progress, a replay id, an unexpected key, a
// timestamp, an artifact id.
func echoRepo(t *testing.T, s map[string]string) *testRepo {
	r := workspaceRepo(t)
	r.Write(artifactPath, smpFixture(t, "llm-context-research.v1.md"))
	r.Commit("artifact")
	plan := strings.Replace(r.Read(".small/plan.small.yml"), `small_version: "1.0.0"`, `small_version: "`+s["version"]+`"`, 1)
	r.Write(".small/plan.small.yml", plan)
	r.Write(".small/handoff.small.yml", strings.Replace(strings.Replace(r.Read(".small/handoff.small.yml"),
		"resume:\n", "resume:\n    current_task_id: "+s["handoff"]+"\n", 1),
		"ab1497cf5afa8dccde350b967d256c58aea53f18794ab590487f25e4f3a040f2", s["replay"], 1))
	entry := strings.NewReplacer(
		"task_id: task-3", "task_id: "+s["task"],
		`"2026-11-22T10:20:00.000000001Z"`, `"`+s["timestamp"]+`"`,
		"status: completed", s["key"]+": completed",
	).Replace(appendedEntry)
	r.Write(progressPath, r.Read(progressPath)+entry)
	r.Write(artifactPath, strings.Replace(r.Read(artifactPath), "id: 'artifact:llm-context-research'", "id: 'artifact:"+s["artifact"]+"'", 1))
	r.Git("add", "-A")
	return r
}

// leaks returns the secrets (or 12-character pieces of them) in text.
func leaks(text string, secrets map[string]string) []string {
	var found []string
	for name, s := range secrets {
		for i := 0; i+12 <= len(s); i++ {
			if strings.Contains(text, s[i:i+12]) {
				found = append(found, name+" ("+s[i:i+12]+")")
				break
			}
		}
	}
	return found
}

func TestNoOutputRepeatsASecret(t *testing.T) {
	s := echoSecrets()
	r := echoRepo(t, s)
	dir := t.TempDir()
	msg := filepath.Join(dir, "MSG")
	if err := os.WriteFile(msg, []byte("Record progress\n\nCo-Authored-By: Bot <"+s["trailer"]+"@example.com>\nSmall-Rewrite: "+s["reason"]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := [][]string{
		{"check"},
		{"check", "--commit-msg", msg},
		{"check", "--all"},
	}
	for _, base := range runs {
		for _, format := range []string{"text", "json", "sarif", "github"} {
			summary := filepath.Join(dir, "summary.md")
			outputs := []string{"text", "json", "sarif", "github"}
			args := append(append([]string{}, base...), "--format", format)
			for _, o := range outputs {
				args = append(args, "--output", o+"="+filepath.Join(dir, "out."+o))
			}
			code, out, errOut := r.check(map[string]string{"GITHUB_STEP_SUMMARY": summary}, args...)
			if code != exitFindings {
				t.Fatalf("%v: exit %d, want findings\n%s%s", args, code, out, errOut)
			}
			all := out + errOut
			files := outputs
			if format == "github" {
				files = append(files, "") // the step summary
			}
			for _, f := range files {
				name := filepath.Join(dir, "out."+f)
				if f == "" {
					name = summary
				}
				data, err := os.ReadFile(name)
				if err != nil || len(data) == 0 {
					t.Fatalf("%v: %s was not written: %v", args, name, err)
				}
				all += string(data)
			}
			if got := leaks(all, s); len(got) > 0 {
				t.Errorf("%v printed %v", args, got)
			}
			os.Remove(summary)
		}
	}
	// An error that stops the check (a bad Small-Actor value) is
	// redacted too, on stderr and in the GitHub annotation and summary.
	if err := os.WriteFile(msg, []byte("Record progress\n\nSmall-Actor: "+s["trailer"]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	summary := filepath.Join(dir, "failure.md")
	for _, format := range []string{"text", "github"} {
		code, out, errOut := r.check(map[string]string{"GITHUB_STEP_SUMMARY": summary}, "check", "--commit-msg", msg, "--format", format)
		md, _ := os.ReadFile(summary)
		if code != exitFailure || errOut == "" {
			t.Fatalf("a bad Small-Actor value: exit %d, stderr %q", code, errOut)
		}
		if got := leaks(out+errOut+string(md), s); len(got) > 0 {
			t.Errorf("--format %s: the error printed %v", format, got)
		}
	}
}
