package signature

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestVerifyOpenPGPAgainstGit signs real commits with gpg through git
// commit -S, reads them back with go-git and checks every verdict against
// git verify-commit run with a GNUPGHOME that holds the key file's keys.
func TestVerifyOpenPGPAgainstGit(t *testing.T) {
	tl := newTool(t)
	home := tl.gnupgHome("signer")
	carol := tl.pgpKey(home, "Carol <carol@example.com>", "sign", "never")
	tl.gpg(home, "--quick-add-uid", carol, "Carol Work <carol@work.example>")
	tl.gpg(home, "--quick-add-uid", carol, "Carol Old <carol@old.example>")
	// The revocation must be dated after the user ID's self-signature:
	// within the same second, which of the two is newer is undecided.
	time.Sleep(1100 * time.Millisecond)
	tl.gpg(home, "--quick-revoke-uid", carol, "Carol Old <carol@old.example>")
	mallory := tl.pgpKey(home, "Mallory <mallory@example.com>", "sign", "never")
	sam := tl.pgpKey(home, "Sam <sam@example.com>", "cert", "never")
	tl.gpg(home, "--quick-add-key", sam, "ed25519", "sign", "never")
	rita := tl.pgpKey(home, "Rita <rita@example.com>", "sign", "never")
	olga := tl.pgpKey(home, "Olga <olga@example.com>", "sign", "1d", "--faked-system-time", "20200101T000000")
	in2020 := tl.write("gpg-2020", "#!/bin/sh\nexec gpg --faked-system-time 20200101T120000 \"$@\"\n")
	if err := os.Chmod(in2020, 0o755); err != nil {
		t.Fatal(err)
	}

	repo := tl.repo("repo")
	valid := tl.pgpCommit(repo, home, "gpg", carol, "carol@example.com", "", "valid")
	cases := []struct {
		name      string
		commit    string
		want      Verdict
		gitPasses bool
		detail    string
	}{
		{"valid", valid, Valid, true, ""},
		{"second user ID", tl.pgpCommit(repo, home, "gpg", carol, "carol@work.example", "", "work"), Valid, true, ""},
		{"e-mail case", tl.pgpCommit(repo, home, "gpg", carol, "Carol@Example.COM", "", "case"), Valid, true, ""},
		{"signing subkey", tl.pgpCommit(repo, home, "gpg", sam, "sam@example.com", "", "sam"), Valid, true, ""},
		{"key not in the file", tl.pgpCommit(repo, home, "gpg", mallory, "mallory@example.com", "", "mallory"), UnknownKey, false, "is not in keys.asc"},
		{"key signs for another e-mail", tl.pgpCommit(repo, home, "gpg", carol, "dave@example.com", "", "carol as dave"), PrincipalMismatch, true, `not the committer e-mail "dave@example.com"`},
		{"revoked user ID", tl.pgpCommit(repo, home, "gpg", carol, "carol@old.example", "", "old"), PrincipalMismatch, true, "carol@old.example"},
		{"message changed after signing", tl.writeCommit(repo, strings.Replace(tl.rawCommit(repo, valid), "\n\nvalid\n", "\n\nvalid, and more\n", 1)), BadSignature, false, "does not match the commit"},
		{"expired key, signed while valid", tl.pgpCommit(repo, home, in2020, olga, "olga@example.com", "2020-01-01T12:00:00Z", "olga"), KeyExpired, false, "has expired"},
		{"revoked key", tl.pgpCommit(repo, home, "gpg", rita, "rita@example.com", "", "rita"), KeyRevoked, false, "revoked"},
	}
	// Rita's key is revoked after she signed, with the certificate gpg
	// wrote when it made the key.
	rev, err := os.ReadFile(filepath.Join(home, "openpgp-revocs.d", rita+".rev"))
	if err != nil {
		t.Fatal(err)
	}
	tl.gpg(home, "--import", tl.write("rita.rev", strings.ReplaceAll(string(rev), ":-----BEGIN", "-----BEGIN")))

	keys := tl.gpg(home, "--armor", "--export", carol, sam, rita, olga)
	keyFile := tl.write("keys.asc", keys)
	policy, err := NewPolicy(Sources{OpenPGPKeysPath: "keys.asc", OpenPGPKeys: []byte(keys)})
	if err != nil {
		t.Fatal(err)
	}
	verifier := tl.verifyHome("verifier", keyFile, carol, sam, rita, olga)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := readCommit(t, repo, tc.commit)
			st := policy.Verify(c, time.Now())
			if st.Verdict != tc.want || !strings.Contains(st.Detail, tc.detail) {
				t.Fatalf("Verify = %v (%s), want %v with %q", st.Verdict, st.Detail, tc.want, tc.detail)
			}
			if st.Format != FormatOpenPGP || len(st.Key) != 40 {
				t.Errorf("format %s, key %q", st.Format, st.Key)
			}
			g := tl.gitVerify(repo, tc.commit, []string{"GNUPGHOME=" + verifier})
			if g.ok != tc.gitPasses {
				t.Errorf("git verify-commit passes: %v (%%G? %s), want %v", g.ok, g.status, tc.gitPasses)
			}
			if tc.want == Valid {
				if !strings.EqualFold(st.Signer[strings.Index(st.Signer, "<")+1:len(st.Signer)-1], c.CommitterEmail) || st.Entry != "keys.asc:1" {
					t.Errorf("valid status %+v", st)
				}
			} else if st.Signer != "" {
				t.Errorf("a %v status names a signer: %+v", st.Verdict, st)
			}
		})
	}
	// Expiry and revocation are judged at the time of verification: in
	// 2020 Olga's key was valid.
	olgaCommit := readCommit(t, repo, cases[8].commit)
	if st := policy.Verify(olgaCommit, time.Date(2020, 1, 1, 13, 0, 0, 0, time.UTC)); st.Verdict != Valid {
		t.Errorf("Olga's commit verified in 2020: %v (%s)", st.Verdict, st.Detail)
	}
}
