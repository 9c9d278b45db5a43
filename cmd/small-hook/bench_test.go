package main

import (
	"io"
	"strings"
	"testing"
)

// BenchmarkStagedCheck is the pre-commit hook on the reference project's
// 1,206-entry progress file with one appended entry, in a real repository.
func BenchmarkStagedCheck(b *testing.B) {
	r := newTestRepo(b)
	r.copyDir(fixtureLarge, ".small")
	r.Commit("workspace")
	entry := strings.Replace(appendedEntry, "2026-11-22", "2027-01-01", 1)
	r.Write(progressPath, r.Read(progressPath)+entry)
	r.Git("add", "-A")
	e := &env{stdout: io.Discard, stderr: io.Discard, dir: r.Dir, getenv: func(string) string { return "" }}
	for b.Loop() {
		if code := run([]string{"check"}, e); code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkGuardedEdit is small-hook guard judging Claude Code's Edit that
// appends one entry to the reference project's 1,206-entry progress file.
func BenchmarkGuardedEdit(b *testing.B) {
	r := newTestRepo(b)
	r.copyDir(fixtureLarge, ".small")
	r.Commit("workspace")
	content := r.Read(progressPath)
	last := content[strings.LastIndex(strings.TrimSuffix(content, "\n"), "\n")+1:]
	input := hookInput(b, "claude", r.Dir, "Edit", map[string]any{"file_path": r.Path(progressPath), "old_string": last,
		"new_string": last + strings.Replace(appendedEntry, "2026-11-22", "2027-01-01", 1)})
	for b.Loop() {
		e := &env{stdin: strings.NewReader(input), stdout: io.Discard, stderr: io.Discard, dir: r.Dir, getenv: func(string) string { return "" }}
		if code := run([]string{"guard"}, e); code != exitAllowed {
			b.Fatalf("exit %d", code)
		}
	}
}
