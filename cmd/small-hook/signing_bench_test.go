package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkSignedRange is the pull-request check of 200 commits, each
// signed with git commit -S (SSH) and appending a progress entry, every
// tenth also editing the intent, with signatures.require: human-owned and
// without a signature policy (--config, same commits). The issue's
// target: verifying the signatures adds at most 20% to the check.
func BenchmarkSignedRange(b *testing.B) {
	alice, alicePub := sshKey(b, "alice")
	r := newTestRepo(b)
	r.copyDir(fixtureInit, ".small")
	r.Write(".small-hook.yml", signedConfig("human-owned"))
	r.Write(allowedSignersPath, "human@example.com "+alicePub+"\n")
	base := r.Commit("workspace and signing policy")
	for i := range 200 {
		entry := strings.Replace(appendedEntry, "10:20:00.000000001Z", fmt.Sprintf("10:20:00.%09dZ", i+1), 1)
		r.Write(progressPath, r.Read(progressPath)+entry)
		if i%10 == 0 {
			editIntent(r, fmt.Sprintf("Refined %d times", i/10+1))
		}
		sshCommit(r, alice, fmt.Sprintf("progress %d", i))
	}
	plain := filepath.Join(b.TempDir(), "plain.yml")
	if err := os.WriteFile(plain, []byte("secrets:\n  scope: governed\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	e := &env{stdout: io.Discard, stderr: io.Discard, dir: r.Dir, getenv: func(string) string { return "" }}
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"without-signatures", []string{"check", "--base", base, "--config", plain}},
		{"require-human-owned", []string{"check", "--base", base}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if code := run(bc.args, e); code != exitOK {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
