package signature

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// FuzzParseAllowedSigners: any file either parses or is an error naming a
// line of it, and every parsed entry can be judged.
func FuzzParseAllowedSigners(f *testing.F) {
	_, pub := goSSHKey(f)
	for _, seed := range []string{
		"alice@example.com " + pub + "\n",
		"# c\n\n*@example.com,!eve@example.com namespaces=\"git\",valid-after=\"20240101Z\",valid-before=\"202501011230\" " + pub + " c\n",
		`"a b" ` + pub,
		`x"a b"y ` + pub,
		"a cert-authority " + pub,
		"a namespaces=\"g\\\"it\" " + pub,
		"a ,,valid-after=\"20240431235961UTC\" " + pub,
		"\xef\xbb\xbfa " + pub,
		"a\x00 " + pub,
		"a rsa-sha2-512 AAAA",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		signers, err := parseAllowedSigners("f", data, time.UTC)
		if err != nil {
			fe, ok := err.(*FileError)
			if !ok || fe.Line < 1 || fe.Line > bytes.Count(data, []byte("\n"))+1 {
				t.Fatalf("error %v names no line of the file", err)
			}
			return
		}
		for _, s := range signers {
			if s.key == nil || s.line < 1 {
				t.Fatalf("entry %+v", s)
			}
			s.judge(time.Unix(1717200000, 0))
			matchPatternList("alice@example.com", s.principals)
		}
	})
}

// FuzzVerify: whatever the gpgsig header holds, Verify returns one
// verdict, and Valid only with a signer and no detail.
func FuzzVerify(f *testing.F) {
	signer, pub := goSSHKey(f)
	carol := newEntity(f, "Carol", "carol@example.com", nil)
	policy, err := NewPolicy(Sources{
		AllowedSignersPath: "allowed_signers", AllowedSigners: []byte("alice@example.com " + pub + "\n"),
		OpenPGPKeysPath: "keys.asc", OpenPGPKeys: []byte(armored(f, carol, false)),
	})
	if err != nil {
		f.Fatal(err)
	}
	payload := []byte("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n\nmsg\n")
	var pgp bytes.Buffer
	if err := openpgpSign(&pgp, carol, payload); err != nil {
		f.Fatal(err)
	}
	for _, seed := range [][]byte{
		sshSign(f, signer, payload, "git"),
		sshSign(f, signer, payload, "file"),
		pgp.Bytes(),
		[]byte("-----BEGIN SIGNED MESSAGE-----\n"),
		[]byte("-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n"),
		[]byte("-----BEGIN PGP SIGNATURE-----\n\nwsB=\n-----END PGP SIGNATURE-----\n"),
	} {
		f.Add(seed, "alice@example.com")
		f.Add(seed, "carol@example.com")
	}
	f.Fuzz(func(t *testing.T, sig []byte, email string) {
		st := policy.Verify(Commit{Signature: sig, Payload: payload, CommitterEmail: email, CommitterTime: time.Unix(1717200000, 0)}, time.Now())
		if st.Verdict < Unsigned || st.Verdict > PrincipalMismatch {
			t.Fatalf("verdict %d", st.Verdict)
		}
		if st.Verdict == Valid && (st.Detail != "" || st.Signer == "" || !strings.Contains(strings.ToLower(st.Signer), strings.ToLower(email))) {
			t.Fatalf("valid status %+v for %q", st, email)
		}
		if st.Verdict != Valid && (st.Detail == "" || st.Signer != "") {
			t.Fatalf("status %+v", st)
		}
	})
}
