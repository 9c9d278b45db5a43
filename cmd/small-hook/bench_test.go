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
