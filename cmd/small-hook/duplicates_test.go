package main

import (
	"strings"
	"testing"
)

// TestOneProblemOneFinding stages an unquoted SMALL timestamp, an old
// entry's timestamp unquoted, and an unquoted SMP created date in real
// repositories: each is one finding, worded the same way for both
// protocols.
func TestOneProblemOneFinding(t *testing.T) {
	t.Parallel()
	unquote := func(s string) string {
		i := strings.Index(s, `timestamp: "`)
		if i < 0 {
			t.Fatal("the fixture holds no quoted timestamp")
		}
		j := strings.Index(s[i+len(`timestamp: "`):], `"`) + i + len(`timestamp: "`)
		return s[:i] + "timestamp: " + s[i+len(`timestamp: "`):j] + s[j+1:]
	}
	cases := []struct {
		name, path string
		edit       func(r *testRepo) string
		says       string
	}{
		{"a new progress entry's timestamp", progressPath, func(r *testRepo) string {
			return r.Read(progressPath) + unquote(appendedEntry)
		}, "timestamp must be a string, not an unquoted YAML timestamp: quote it"},
		{"an old progress entry's timestamp", progressPath, func(r *testRepo) string {
			return unquote(r.Read(progressPath))
		}, "timestamp must be a string, not an unquoted YAML timestamp: quote it"},
		{"an artifact's created date", artifactPath, func(r *testRepo) string {
			v1 := smpFixture(t, "llm-context-research.v1.md")
			return strings.Replace(v1, "created: '2026-11-22T10:09:02.571Z'", "created: 2026-11-25", 1)
		}, "/created: must be a string, not an unquoted YAML timestamp: quote it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := workspaceRepo(t)
			r.Write(c.path, c.edit(r))
			r.Git("add", "-A")
			code, out, _ := r.check(nil, "check", "--format", "json")
			rep := decodeReport(t, out)
			if code != exitFindings || len(rep.Findings) != 1 || !strings.Contains(rep.Findings[0].Message, c.says) {
				t.Fatalf("exit %d, want exactly one finding saying %q:\n%s", code, c.says, out)
			}
		})
	}
}
