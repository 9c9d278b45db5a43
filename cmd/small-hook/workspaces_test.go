package main

import (
	"strings"
	"testing"
)

const (
	nestedDir      = "examples/demo/.small"
	nestedProgress = nestedDir + "/progress.small.yml"
	nestedIntent   = nestedDir + "/intent.small.yml"
	awpRoot        = "templates/clawd"
	nestedArtifact = awpRoot + "/artifacts/llm-context-research.md"
)

// nestedRepo commits a repository whose only workspaces are nested: a
// SMALL workspace under examples/demo/ and an AWP workspace under
// templates/clawd/ (the layouts the reference repositories use).
func nestedRepo(t *testing.T) (*testRepo, string) {
	t.Helper()
	r := newTestRepo(t)
	r.copyDir(fixtureInit, nestedDir)
	r.Write(awpRoot+"/.awp/workspace.json", "{\"name\": \"clawd\"}\n")
	r.Write(nestedArtifact, smpFixture(t, "llm-context-research.v1.md"))
	r.Write("build/artifacts/unrelated.md", "not an artifact: no .awp/workspace.json beside it\n")
	r.Write("src/main.go", "package main\n")
	base := r.Commit("nested workspaces")
	return r, base
}

// findingsAt returns "rule path" for every error finding.
func findingsAt(rep jsonReport) []string {
	var out []string
	for _, f := range rep.Findings {
		if f.Severity == "error" {
			out = append(out, f.Rule+" "+f.Path)
		}
	}
	return out
}

func TestNestedWorkspacesAreGoverned(t *testing.T) {
	cases := []struct {
		name string
		// change edits the repository; msg is the commit message.
		change func(r *testRepo)
		msg    string
		want   string // "rule path" of an error finding; "" for no error at all
	}{
		{"append to nested progress", func(r *testRepo) {
			r.Write(nestedProgress, r.Read(nestedProgress)+strings.Replace(appendedEntry, "    - ", "    - ", 1))
		}, "progress", ""},
		{"rewrite nested progress", func(r *testRepo) {
			r.Write(nestedProgress, strings.Replace(r.Read(nestedProgress), "go test ./parser passed", "rewritten", 1))
		}, "rewrite", "small/append-only " + nestedProgress},
		{"agent edits nested intent", func(r *testRepo) {
			r.Write(nestedIntent, strings.Replace(r.Read(nestedIntent), "Conformance test workspace", "Whatever the agent likes", 1))
		}, "intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>", "small/ownership " + nestedIntent},
		{"secret in nested plan", func(r *testRepo) {
			r.Write(nestedDir+"/plan.small.yml", r.Read(nestedDir+"/plan.small.yml")+"    - id: task-4\n      title: deploy with "+fakeAWS+"\n")
		}, "plan", "secrets/aws-access-token " + nestedDir + "/plan.small.yml"},
		{"nested handoff deleted", func(r *testRepo) {
			r.Git("rm", "-q", nestedDir+"/handoff.small.yml")
		}, "drop handoff", "small/required " + nestedDir + "/handoff.small.yml"},
		{"nested artifact history rewritten", func(r *testRepo) {
			r.Write(nestedArtifact, strings.Replace(r.Read(nestedArtifact), "action: created", "action: updated", 1))
		}, "artifact", "smp/append-only " + nestedArtifact},
		{"marker deleted with the rewrite", func(r *testRepo) {
			r.Git("rm", "-q", awpRoot+"/.awp/workspace.json")
			r.Write(nestedArtifact, strings.Replace(r.Read(nestedArtifact), "action: created", "action: updated", 1))
		}, "artifact", "smp/append-only " + nestedArtifact},
		{"secret in nested .awp", func(r *testRepo) {
			r.Write(awpRoot+"/.awp/private-key.pem", fakeKey)
		}, "key", "secrets/private-key " + awpRoot + "/.awp/private-key.pem"},
		{"artifacts without a workspace are not governed", func(r *testRepo) {
			r.Write("build/artifacts/unrelated.md", "still not an artifact\n")
		}, "build", ""},
		{"agent adds a folded intent", func(r *testRepo) {
			r.Write("examples/demo/.SMALL/intent.small.yml", r.Read(nestedIntent))
		}, "intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>", "path/folded examples/demo/.SMALL/intent.small.yml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, base := nestedRepo(t)
			c.change(r)
			r.Git("add", "-A")
			msgFile := r.Dir + "/.git/COMMIT_EDITMSG"
			r.Write(".git/COMMIT_EDITMSG", c.msg)
			// The pre-commit stage leaves ownership to the commit-msg stage.
			pending := strings.HasPrefix(c.want, "small/ownership")
			stages := map[string][]string{
				"pre-commit": {"check", "--format", "json"},
				"commit-msg": {"check", "--commit-msg", msgFile, "--format", "json"},
			}
			for stage, args := range stages {
				want := c.want
				if pending && stage == "pre-commit" {
					want = ""
				}
				expectError(t, stage, r, want, args...)
			}
			r.Git("commit", "-q", "--no-verify", "-m", c.msg)
			expectError(t, "range", r, c.want, "check", "--base", base, "--format", "json")
		})
	}
}

// expectError runs a check and wants an error finding (want is "rule path"), or
// none at all and exit 0 when want is "".
func expectError(t *testing.T, what string, r *testRepo, want string, args ...string) {
	t.Helper()
	code, out, errOut := r.check(nil, args...)
	got := findingsAt(decodeReport(t, out))
	switch {
	case want == "" && (code != exitOK || len(got) > 0):
		t.Errorf("%s: exit %d, findings %q, want none\n%s", what, code, got, errOut)
	case want != "" && (code != exitFindings || !contains(got, want)):
		t.Errorf("%s: exit %d, findings %q, want %q\n%s", what, code, got, want, errOut)
	}
}

func TestNestedWorkspacesWithAll(t *testing.T) {
	r, _ := nestedRepo(t)
	r.Git("rm", "-q", nestedDir+"/handoff.small.yml")
	r.Write(nestedArtifact, strings.Replace(r.Read(nestedArtifact), "version: 1", "version: 0", 1))
	r.Commit("broken state")
	code, out, errOut := r.check(nil, "check", "--all", "--format", "json")
	got := strings.Join(findingsAt(decodeReport(t, out)), ", ")
	for _, want := range []string{"small/required " + nestedDir + "/handoff.small.yml", "smp/schema " + nestedArtifact} {
		if !strings.Contains(got, want) {
			t.Errorf("--all: exit %d, findings %q, want %q\n%s", code, got, want, errOut)
		}
	}
	if code, out, _ := r.check(nil, "check", "--all", "--rev", "HEAD", "--format", "json"); strings.Join(findingsAt(decodeReport(t, out)), ", ") != got {
		t.Errorf("--all --rev HEAD: exit %d, findings differ from the index's:\n%s", code, out)
	}
}
