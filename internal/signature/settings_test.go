package signature

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// TestReadinessSSH judges git settings with real keys, and for every
// setting git can sign with in batch, makes the commit and checks that
// Verify agrees with what Readiness promised.
func TestReadinessSSH(t *testing.T) {
	tl := newTool(t)
	alice, alicePub := tl.sshKey("alice")
	bob, bobPub := tl.sshKey("bob")
	carol, carolPub := tl.sshKey("carol")
	old, oldPub := tl.sshKey("old")
	files, filesPub := tl.sshKey("files")
	// A copy of Alice's key without its .pub file, and an encrypted key
	// without one: the public key comes from the private key file's head.
	aliceOnly := filepath.Join(tl.dir, "alice-only")
	if err := os.WriteFile(aliceOnly, read(t, alice), 0o600); err != nil {
		t.Fatal(err)
	}
	enc := filepath.Join(tl.dir, "enc")
	tl.must(tl.dir, nil, nil, "ssh-keygen", "-q", "-t", "ed25519", "-N", "a passphrase", "-f", enc)
	encPub := strings.TrimSpace(string(read(t, enc+".pub")))
	if err := os.Remove(enc + ".pub"); err != nil {
		t.Fatal(err)
	}
	allowedText := strings.Join([]string{
		"alice@example.com " + alicePub,
		"carol@example.com " + carolPub,
		`old@example.com valid-before="20200101Z" ` + oldPub,
		`files@example.com namespaces="file" ` + filesPub,
		"enc@example.com " + encPub,
	}, "\n") + "\n"
	policy, err := NewPolicy(Sources{AllowedSignersPath: "allowed_signers", AllowedSigners: []byte(allowedText)})
	if err != nil {
		t.Fatal(err)
	}
	// settings reads the key files as the caller must.
	settings := func(sign bool, format, key, email string) GitSettings {
		s := GitSettings{GPGSign: sign, Format: format, SigningKey: key, CommitterEmail: email}
		if key != "" && !strings.HasPrefix(key, "key::") && !strings.HasPrefix(key, "ssh-") {
			s.KeyFile, _ = os.ReadFile(key)
			s.PublicKeyFile, _ = os.ReadFile(key + ".pub")
		}
		return s
	}
	repo := tl.repo("repo")
	cases := []struct {
		name     string
		settings GitSettings
		signed   bool
		advice   string
		// commit says whether git can sign with the settings here (a
		// literal key or an encrypted one needs an ssh-agent).
		commit bool
	}{
		{"private key with .pub", settings(true, "ssh", alice, "alice@example.com"), true, "", true},
		{"the .pub file itself", settings(true, "ssh", alice+".pub", "alice@example.com"), true, "", false},
		{"private key without .pub", settings(true, "ssh", aliceOnly, "alice@example.com"), true, "", true},
		{"encrypted key without .pub", settings(true, "ssh", enc, "enc@example.com"), true, "", false},
		{"literal key::", settings(true, "ssh", "key::"+alicePub, "alice@example.com"), true, "", false},
		{"deprecated literal", settings(true, "ssh", alicePub, "alice@example.com"), true, "", false},
		{"commit.gpgsign off", settings(false, "ssh", alice, "alice@example.com"), false, "git config commit.gpgsign true", true},
		{"key not listed", settings(true, "ssh", bob, "alice@example.com"), false, `add the line ` + "`" + `alice@example.com namespaces="git" ` + strings.TrimSuffix(bobPub, " bob") + "`", true},
		{"key listed for another e-mail", settings(true, "ssh", carol, "alice@example.com"), false, "not for the committer e-mail", true},
		{"key expired", settings(true, "ssh", old, "old@example.com"), false, "has expired", true},
		{"namespaces exclude git", settings(true, "ssh", files, "files@example.com"), false, "do not include git", true},
		{"no signing key", settings(true, "ssh", "", "alice@example.com"), false, "user.signingkey is not set", false},
		{"key file missing", settings(true, "ssh", filepath.Join(tl.dir, "missing"), "alice@example.com"), false, "cannot find the public key", false},
		{"broken literal", settings(true, "ssh", "key::ssh-ed25519 AAAA", "alice@example.com"), false, "literal SSH key that cannot be read", false},
		{"x509", settings(true, "x509", "", "alice@example.com"), false, "x509", false},
		{"unknown format", settings(true, "sssh", alice, "alice@example.com"), false, `"sssh"`, false},
		{"off and not listed", settings(false, "ssh", bob, "alice@example.com"), false, "commit.gpgsign true`; also, the signing key", false},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := policy.Readiness(tc.settings, time.Now())
			if r.Signed != tc.signed || !strings.Contains(r.Advice, tc.advice) || (r.Advice == "") != tc.signed {
				t.Fatalf("%+v, want signed %v with advice %q", r, tc.signed, tc.advice)
			}
			if tc.signed && !strings.HasPrefix(r.Key, "SHA256:") {
				t.Errorf("key %q", r.Key)
			}
			if !tc.commit {
				return
			}
			s := tc.settings
			id := tl.commit(repo, s.GPGSign, s.CommitterEmail, "", fmt.Sprint("commit ", i), nil,
				"gpg.format="+s.Format, "user.signingkey="+s.SigningKey)
			st := policy.Verify(readCommit(t, repo, id), time.Now())
			if (st.Verdict == Valid) != r.Signed {
				t.Errorf("Readiness promised signed=%v, the commit verifies as %v (%s)", r.Signed, st.Verdict, st.Detail)
			}
		})
	}
	noSSH, err := NewPolicy(Sources{OpenPGPKeysPath: "keys.asc"})
	if err != nil {
		t.Fatal(err)
	}
	if r := noSSH.Readiness(settings(true, "ssh", alice, "alice@example.com"), time.Now()); r.Signed || !strings.Contains(r.Advice, "no allowed-signers file") {
		t.Errorf("without an allowed-signers file: %+v", r)
	}
}

func TestReadinessOpenPGP(t *testing.T) {
	created := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	now := created.Add(24 * time.Hour)
	carol := newEntity(t, "Carol", "carol@example.com", &packet.Config{Time: func() time.Time { return created }})
	brief := newEntity(t, "Brief", "brief@example.com", &packet.Config{Time: func() time.Time { return created }, KeyLifetimeSecs: 3600})
	stranger := newEntity(t, "Stranger", "stranger@example.com", nil)
	policy, err := NewPolicy(Sources{OpenPGPKeysPath: "keys.asc", OpenPGPKeys: []byte(armored(t, carol, false) + armored(t, brief, false))})
	if err != nil {
		t.Fatal(err)
	}
	fpr := fmt.Sprintf("%X", carol.PrimaryKey.Fingerprint)
	sub := fmt.Sprintf("%x", carol.Subkeys[0].PublicKey.Fingerprint)
	cases := []struct {
		key, email string
		signed     bool
		advice     string
	}{
		{fpr, "carol@example.com", true, ""},
		{fpr[24:], "carol@example.com", true, ""},
		{"0x" + fpr[32:], "carol@example.com", true, ""},
		{strings.ToLower(fpr) + "!", "carol@example.com", true, ""},
		{sub, "carol@example.com", true, ""},
		{fpr, "CAROL@example.com", true, ""},
		{fpr, "dave@example.com", false, `no valid user ID with your committer e-mail "dave@example.com"`},
		{fmt.Sprintf("%X", stranger.PrimaryKey.Fingerprint), "carol@example.com", false, "is not in keys.asc"},
		{fmt.Sprintf("%X", brief.PrimaryKey.Fingerprint), "brief@example.com", false, "is expired or revoked"},
		{"Carol <carol@example.com>", "carol@example.com", false, "gpg chooses the key"},
		{"", "carol@example.com", false, "gpg chooses the key"},
		{fpr[:39], "carol@example.com", false, "gpg chooses the key"},
	}
	for _, tc := range cases {
		r := policy.Readiness(GitSettings{GPGSign: true, SigningKey: tc.key, CommitterEmail: tc.email}, now)
		if r.Signed != tc.signed || !strings.Contains(r.Advice, tc.advice) || (r.Advice == "") != tc.signed {
			t.Errorf("%q for %s: %+v, want signed %v with %q", tc.key, tc.email, r, tc.signed, tc.advice)
		}
		if tc.signed && r.Key != fpr {
			t.Errorf("%q: key %q, want %s", tc.key, r.Key, fpr)
		}
	}
	if r := policy.Readiness(GitSettings{GPGSign: true, Format: "openpgp", SigningKey: fpr, CommitterEmail: "carol@example.com"}, now); !r.Signed {
		t.Errorf("gpg.format=openpgp: %+v", r)
	}
	noKeys, err := NewPolicy(Sources{AllowedSignersPath: "allowed_signers"})
	if err != nil {
		t.Fatal(err)
	}
	if r := noKeys.Readiness(GitSettings{GPGSign: true, SigningKey: fpr, CommitterEmail: "carol@example.com"}, now); r.Signed || !strings.Contains(r.Advice, "no OpenPGP key file") {
		t.Errorf("without an OpenPGP key file: %+v", r)
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
