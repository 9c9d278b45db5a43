package main

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"
)

// TestEncodedSecretsAreCaughtAndNeverPrinted: a token written base64- or
// hex-encoded (gitleaks' CLI decodes both before it matches) in a TOML
// file of .awp/ and as a SMALL workspace's small_version, which
// small/version echoes, is reported staged and in a range, and no format
// prints a piece of the token or of its encoded text.
func TestEncodedSecretsAreCaughtAndNeverPrinted(t *testing.T) {
	t.Parallel()
	b64 := base64.StdEncoding.EncodeToString([]byte(fakeGitHub))
	hexed := hex.EncodeToString([]byte(fakeGitHub))
	r := workspaceRepo(t)
	r.Write(".awp/workspace.json", "{}\n")
	base := r.Commit("an AWP workspace")
	r.Write(".awp/settings.toml", "name = \"research\"\ntoken = \""+hexed+"\"\n")
	r.Write(".small/workspace.small.yml", strings.Replace(r.Read(".small/workspace.small.yml"), `small_version: "1.0.0"`, `small_version: "`+b64+`"`, 1))
	r.Git("add", "-A")
	for _, args := range [][]string{{"check"}, {"check", "--base", base}} {
		if len(args) > 1 {
			r.Git("commit", "-q", "--no-verify", "-m", "encoded tokens")
		}
		code, out := everyOutput(t, r, args...)
		if code != exitFindings {
			t.Fatalf("%v: exit %d\n%s", args, code, out)
		}
		for _, want := range []string{".awp/settings.toml:2: error secrets/github-pat", ".small/workspace.small.yml:1: error secrets/github-pat", "small/version"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: %q is not reported:\n%s", args, want, out)
			}
		}
		for _, s := range []string{fakeGitHub, b64, hexed} {
			if p := pieceOf(out, s); p != "" {
				t.Errorf("%v: the output holds %q:\n%s", args, p, out)
			}
		}
	}
}
