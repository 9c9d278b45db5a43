package signature

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"strings"
	"testing"
	"time"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// goSSHKey makes an ed25519 key in Go and its authorized-keys line, for
// tests of malformed input (the end-to-end tests use ssh-keygen).
func goSSHKey(t testing.TB) (ssh.Signer, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return signer, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(signer.PublicKey())))
}

func sshSign(t testing.TB, signer ssh.Signer, payload []byte, namespace string) []byte {
	t.Helper()
	sig, err := sshsig.Sign(bytes.NewReader(payload), signer, sshsig.HashSHA512, namespace)
	if err != nil {
		t.Fatal(err)
	}
	return sshsig.Armor(sig)
}

// TestVerifyHostileSignatures feeds Verify gpgsig headers an attacker
// could write: none may come out Valid, and each gets the verdict that
// says what is wrong.
func TestVerifyHostileSignatures(t *testing.T) {
	signer, pub := goSSHKey(t)
	allowed := "alice@example.com " + pub + "\n"
	policy, err := NewPolicy(Sources{AllowedSignersPath: "allowed_signers", AllowedSigners: []byte(allowed)})
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <alice@example.com> 1704067200 +0000\ncommitter A <alice@example.com> 1704067200 +0000\n\nmsg\n")
	good := sshSign(t, signer, payload, "git")
	block, _ := pem.Decode(good)
	withHeader := pem.EncodeToMemory(&pem.Block{Type: block.Type, Headers: map[string]string{"Comment": "x"}, Bytes: block.Bytes})
	cases := []struct {
		name   string
		sig    []byte
		format Format
		want   Verdict
	}{
		{"the good one", good, FormatSSH, Valid},
		{"empty", nil, FormatNone, Unsigned},
		{"white space", []byte(" \n\t\n"), FormatNone, Unsigned},
		{"X.509", []byte("-----BEGIN SIGNED MESSAGE-----\nMIAG\n-----END SIGNED MESSAGE-----\n"), FormatX509, Unsupported},
		{"no armor", []byte("trust me\n"), FormatUnknown, Unsupported},
		{"white space before the armor", append([]byte("\n"), good...), FormatUnknown, Unsupported},
		{"OpenPGP message", []byte("-----BEGIN PGP MESSAGE-----\n\nowE=\n-----END PGP MESSAGE-----\n"), FormatOpenPGP, BadSignature},
		{"a second SSH signature after the first", append(append([]byte{}, good...), good...), FormatSSH, BadSignature},
		{"text after the armor", append(append([]byte{}, good...), "and more\n"...), FormatSSH, BadSignature},
		{"PEM headers", withHeader, FormatSSH, BadSignature},
		{"broken base64", []byte(strings.Replace(string(good), "\n", "\n!", 2)), FormatSSH, BadSignature},
		{"no end line", bytes.TrimSuffix(good, []byte("-----END SSH SIGNATURE-----\n")), FormatSSH, BadSignature},
		{"truncated blob", pem.EncodeToMemory(&pem.Block{Type: "SSH SIGNATURE", Bytes: block.Bytes[:len(block.Bytes)-5]}), FormatSSH, BadSignature},
		{"trailing bytes in the blob", pem.EncodeToMemory(&pem.Block{Type: "SSH SIGNATURE", Bytes: append(append([]byte{}, block.Bytes...), 0)}), FormatSSH, BadSignature},
		{"namespace file", sshSign(t, signer, payload, "file"), FormatSSH, WrongNamespace},
		{"another payload", sshSign(t, signer, append([]byte("x"), payload...), "git"), FormatSSH, BadSignature},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := policy.Verify(Commit{Signature: tc.sig, Payload: payload, CommitterEmail: "alice@example.com", CommitterTime: time.Unix(1704067200, 0)}, time.Now())
			if st.Verdict != tc.want || st.Format != tc.format {
				t.Errorf("%v %v (%s), want %v %v", st.Format, st.Verdict, st.Detail, tc.format, tc.want)
			}
			if (st.Verdict == Valid) != (st.Detail == "") {
				t.Errorf("detail %q with verdict %v", st.Detail, st.Verdict)
			}
		})
	}
}

func TestVerifyWithoutKeyFiles(t *testing.T) {
	signer, _ := goSSHKey(t)
	policy, err := NewPolicy(Sources{})
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte("payload")
	st := policy.Verify(Commit{Signature: sshSign(t, signer, payload, "git"), Payload: payload, CommitterEmail: "alice@example.com"}, time.Now())
	if st.Verdict != UnknownKey || !strings.Contains(st.Detail, "no allowed-signers file is configured") {
		t.Errorf("SSH without an allowed-signers file: %v (%s)", st.Verdict, st.Detail)
	}
	carol := newEntity(t, "Carol", "carol@example.com", nil)
	var sig bytes.Buffer
	if err := openpgpSign(&sig, carol, payload); err != nil {
		t.Fatal(err)
	}
	st = policy.Verify(Commit{Signature: sig.Bytes(), Payload: payload, CommitterEmail: "carol@example.com"}, time.Now())
	if st.Verdict != UnknownKey || !strings.Contains(st.Detail, "no OpenPGP key file is configured") {
		t.Errorf("OpenPGP without a key file: %v (%s)", st.Verdict, st.Detail)
	}
}

func TestVerdictAndStatusStrings(t *testing.T) {
	names := map[string]bool{}
	for v := Unsigned; v <= PrincipalMismatch; v++ {
		name := v.String()
		if names[name] || strings.HasPrefix(name, "verdict(") {
			t.Errorf("verdict %d is named %q", int(v), name)
		}
		names[name] = true
	}
	if got := Verdict(99).String(); got != "verdict(99)" {
		t.Errorf("unknown verdict: %q", got)
	}
	var zero Status
	if zero.Verdict != Unsigned {
		t.Error("the zero Status is not unsigned: a status never filled in must not pass")
	}
	for _, tc := range []struct {
		st   Status
		want string
	}{
		{Status{Format: FormatSSH, Verdict: Valid, Signer: "a@b.c", Key: "SHA256:x", Entry: "f:1"}, "valid ssh signature by a@b.c (key SHA256:x, f:1)"},
		{Status{Format: FormatNone, Verdict: Unsigned, Detail: "the commit is not signed"}, "unsigned: the commit is not signed"},
		{Status{Format: FormatOpenPGP, Verdict: UnknownKey, Detail: "d"}, "unknown-key openpgp signature: d"},
	} {
		if got := tc.st.String(); got != tc.want {
			t.Errorf("%q, want %q", got, tc.want)
		}
	}
}
