package signature

import (
	"os"
	"path/filepath"
	"strings"
)

// gnupgHome creates a GNUPGHOME and stops its gpg-agent when the test ends.
func (tl *tool) gnupgHome(name string) string {
	tl.t.Helper()
	home := filepath.Join(tl.dir, name)
	if err := os.Mkdir(home, 0o700); err != nil {
		tl.t.Fatal(err)
	}
	tl.t.Cleanup(func() {
		tl.run(tl.dir, []string{"GNUPGHOME=" + home}, nil, "gpgconf", "--kill", "gpg-agent")
	})
	return home
}

// gpg runs gpg in batch mode in a GNUPGHOME.
func (tl *tool) gpg(home string, args ...string) string {
	tl.t.Helper()
	return tl.must(tl.dir, []string{"GNUPGHOME=" + home}, nil, "gpg", append([]string{"--batch", "--quiet", "--pinentry-mode", "loopback", "--passphrase", ""}, args...)...)
}

// pgpKey generates a key in home (extra arguments go before the user ID,
// such as --faked-system-time) and returns its fingerprint.
func (tl *tool) pgpKey(home, userID, usage, expire string, extra ...string) string {
	tl.t.Helper()
	tl.gpg(home, append(extra, "--quick-gen-key", userID, "ed25519", usage, expire)...)
	return tl.fingerprint(home, userID)
}

// fingerprint returns the primary key fingerprint of the key with userID.
func (tl *tool) fingerprint(home, userID string) string {
	tl.t.Helper()
	out := tl.gpg(home, "--with-colons", "--list-keys", "="+userID)
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Split(line, ":"); f[0] == "fpr" {
			return f[9]
		}
	}
	tl.t.Fatalf("no key for %s:\n%s", userID, out)
	return ""
}

// pgpCommit makes a commit signed by gpg with the key fpr, through
// gpgProgram ("gpg" or a wrapper script).
func (tl *tool) pgpCommit(repo, home, gpgProgram, fpr, email, date, msg string) string {
	tl.t.Helper()
	return tl.commit(repo, true, email, date, msg, []string{"GNUPGHOME=" + home},
		"gpg.format=openpgp", "gpg.program="+gpgProgram, "user.signingkey="+fpr)
}

// verifyHome creates a GNUPGHOME that holds exactly the keys of an OpenPGP
// key file, trusted (the key file is the trust decision), for git
// verify-commit to compare with.
func (tl *tool) verifyHome(name, keyFile string, fprs ...string) string {
	tl.t.Helper()
	home := tl.gnupgHome(name)
	tl.gpg(home, "--import", keyFile)
	var trust strings.Builder
	for _, f := range fprs {
		trust.WriteString(f + ":6:\n")
	}
	tl.must(tl.dir, []string{"GNUPGHOME=" + home}, []byte(trust.String()), "gpg", "--batch", "--quiet", "--import-ownertrust")
	return home
}
