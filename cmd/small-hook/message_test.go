package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// messageEditor writes an editor that puts text above the message git
// hands it, as a person does in the template, and returns the GIT_EDITOR
// setting that runs it.
func messageEditor(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "editor")
	script := "#!/bin/sh\n{ printf '%s' '" + strings.ReplaceAll(text, "'", `'\''`) + "'; cat \"$1\"; } > \"$1.new\" && mv \"$1.new\" \"$1\"\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return "GIT_EDITOR=" + path
}

// TestCommitMsgStageReadsTheMessageGitCommits commits an agent's intent
// edit through the native hooks with the message written in the editor,
// whose template git fills with comment lines of core.commentChar: the
// commit-msg stage must read the trailers of the message git commits, not
// take the comment block for the last paragraph.
func TestCommitMsgStageReadsTheMessageGitCommits(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, comment string
		args          []string
		edit          string
	}{
		{name: "core.commentChar=;", comment: ";", edit: "Refine intent\n\nSmall-Actor: agent\n"},
		{name: "core.commentChar=auto and a message whose lines start with #", comment: "auto", args: []string{"-e", "-m", "# Refine intent\n\nSmall-Actor: agent"}},
		{name: "core.commentChar=; and git commit -v", comment: ";", args: []string{"-v"}, edit: "Refine intent\n\nSmall-Actor: agent\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := workspaceRepo(t)
			bin, env := withBinary(t)
			if out, ok := runIn(t, r.Dir, env, bin, "install"); !ok {
				t.Fatalf("install: %s", out)
			}
			r.Git("config", "core.commentChar", c.comment)
			head := r.Git("rev-parse", "HEAD")
			editIntent(r, "rewritten by an agent")
			r.Git("add", "-A")
			out, ok := runIn(t, r.Dir, append(env, messageEditor(t, c.edit)), "git", append([]string{"commit", "-q"}, c.args...)...)
			if ok || !strings.Contains(out, "small/ownership") || !strings.Contains(out, "Small-Actor: agent") {
				t.Fatalf("the commit-msg hook missed Small-Actor: agent above the %s comment block:\n%s", c.comment, out)
			}
			if got := r.Git("rev-parse", "HEAD"); got != head {
				t.Fatalf("HEAD moved to %s although the commit was refused", got)
			}
		})
	}
}

// TestHugeFoldedTrailerThroughGit commits a 1.2 MB message of one trailer
// folded over 30,000 lines, then an agent's co-author trailer, through the
// native hooks and checks the commit in a range: both stages read the
// trailer after the fold (parsing is linear: see
// attribution.TestFoldedTrailerIsJoinedOnce).
func TestHugeFoldedTrailerThroughGit(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	base := r.Git("rev-parse", "HEAD")
	bin, env := withBinary(t)
	if out, ok := runIn(t, r.Dir, env, bin, "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	var msg strings.Builder
	msg.WriteString("Refine intent\n\nGenerated-note: a value that goes on\n")
	for range 30_000 {
		msg.WriteString("  and on, one more continuation line\n")
	}
	msg.WriteString("Co-Authored-By: Claude <noreply@anthropic.com>\n")
	file := filepath.Join(t.TempDir(), "MSG")
	if err := os.WriteFile(file, []byte(msg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	editIntent(r, "rewritten by an agent")
	r.Git("add", "-A")
	if out, ok := runIn(t, r.Dir, env, "git", "commit", "-q", "-F", file); ok || !strings.Contains(out, "small/ownership") {
		t.Fatalf("the commit-msg hook missed the agent after the folded trailer:\n%s", out)
	}
	r.Git("commit", "-q", "--no-verify", "-F", file)
	if code, out, _ := r.check(nil, "check", "--base", base); code != exitFindings || !strings.Contains(out, "small/ownership") {
		t.Fatalf("the range check missed the agent after the folded trailer: exit %d\n%s", code, out)
	}
}
