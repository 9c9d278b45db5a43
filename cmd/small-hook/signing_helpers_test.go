package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

const (
	allowedSignersPath = ".github/allowed_signers"
	signingKeysPath    = ".github/signing-keys.asc"
)

// needTools fails the test when a program the signing tests run is
// missing: they are part of every development machine and CI image.
func needTools(t testing.TB, names ...string) {
	t.Helper()
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			t.Fatalf("%s is needed to sign the test commits: %v", n, err)
		}
	}
}

// sshKey generates an unencrypted ed25519 key with ssh-keygen and returns
// the private key's path and the public key line.
func sshKey(t testing.TB, name string) (string, string) {
	t.Helper()
	needTools(t, "ssh-keygen")
	path := filepath.Join(t.TempDir(), name)
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v\n%s", err, out)
	}
	pub, err := os.ReadFile(path + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	return path, strings.TrimSpace(string(pub))
}

// fingerprint is the SHA256 fingerprint of a public key line, as
// ssh-keygen prints it.
func fingerprint(t testing.TB, pub string) string {
	t.Helper()
	cmd := exec.Command("ssh-keygen", "-l", "-f", "-")
	cmd.Stdin = strings.NewReader(pub)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(out))[1]
}

// pgpKey generates an OpenPGP signing key for userID in a new GNUPGHOME
// and returns the home, the key's fingerprint and its armored public key.
// The home's gpg-agent is stopped when the test ends.
func pgpKey(t testing.TB, userID string) (home, fpr, armored string) {
	t.Helper()
	needTools(t, "gpg", "gpgconf")
	home, err := os.MkdirTemp("", "gpg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		kill := exec.Command("gpgconf", "--kill", "gpg-agent")
		kill.Env = append(os.Environ(), "GNUPGHOME="+home)
		_ = kill.Run()
		os.RemoveAll(home)
	})
	gpg := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("gpg", append([]string{"--batch", "--quiet", "--pinentry-mode", "loopback", "--passphrase", ""}, args...)...)
		cmd.Env = append(os.Environ(), "GNUPGHOME="+home)
		out, err := cmd.Output()
		if err != nil {
			msg := ""
			if ee, ok := err.(*exec.ExitError); ok {
				msg = string(ee.Stderr)
			}
			t.Fatalf("gpg %v: %v\n%s", args, err, msg)
		}
		return string(out)
	}
	gpg("--quick-gen-key", userID, "ed25519", "sign", "never")
	for _, line := range strings.Split(gpg("--with-colons", "--list-keys", "="+userID), "\n") {
		if f := strings.Split(line, ":"); f[0] == "fpr" {
			fpr = f[9]
			break
		}
	}
	if fpr == "" {
		t.Fatalf("gpg made no key for %s", userID)
	}
	return home, fpr, gpg("--export", "--armor", fpr)
}

// signedConfig is a .small-hook.yml with a signatures section.
func signedConfig(require string) string {
	return "signatures:\n  allowed-signers: " + allowedSignersPath + "\n  require: " + require + "\n"
}

// signingRepo returns a workspace repository whose last commit (the base
// of the tests' ranges) holds cfg and the allowed-signers file allowed.
func signingRepo(t *testing.T, cfg, allowed string) (*testRepo, string) {
	t.Helper()
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", cfg)
	r.Write(allowedSignersPath, allowed)
	return r, r.Commit("signing policy")
}

// sshCommit stages everything and commits it signed by the SSH key at key
// (git commit -S with gpg.format=ssh); env adds to the commit's environment.
func sshCommit(r *testRepo, key, msg string, env ...string) string {
	r.T.Helper()
	r.Git("add", "-A")
	r.GitEnv(env, "-c", "gpg.format=ssh", "-c", "user.signingkey="+key, "commit", "-q", "--no-verify", "-S", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}

// signedReport is the JSON report with the signature statuses.
type signedReport struct {
	jsonReport
	Signatures []struct {
		Commit, Status, Format, Signer, Key, Entry, Detail string
	} `json:"signatures"`
}

func decodeSigned(t *testing.T, out string) signedReport {
	t.Helper()
	var rep signedReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("output is not the JSON report: %v\n%s", err, out)
	}
	return rep
}

// findingSummary is "rule severity path" per finding.
func findingSummary(rep signedReport) []string {
	var out []string
	for _, f := range rep.Findings {
		out = append(out, f.Rule+" "+f.Severity+" "+f.Path)
	}
	return out
}

// hookEnv is the environment an in-process staged check sees: git's
// system configuration left out and the committer set, as git sets it for
// hooks.
func hookEnv(extra ...string) map[string]string {
	vars := map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "GIT_COMMITTER_EMAIL": "human@example.com"}
	for _, kv := range extra {
		k, v, _ := strings.Cut(kv, "=")
		vars[k] = v
	}
	return vars
}
