package signature

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// newEntity makes an OpenPGP key in Go, for tests that need many keys fast
// (the end-to-end tests use gpg).
func newEntity(t testing.TB, name, email string, config *packet.Config) *openpgp.Entity {
	t.Helper()
	e, err := openpgp.NewEntity(name, "", email, config)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// armored returns the armored public key of e, or its private key.
func armored(t testing.TB, e *openpgp.Entity, private bool) string {
	t.Helper()
	var buf bytes.Buffer
	blockType := openpgp.PublicKeyType
	if private {
		blockType = openpgp.PrivateKeyType
	}
	w, err := armor.Encode(&buf, blockType, nil)
	if err != nil {
		t.Fatal(err)
	}
	if private {
		err = e.SerializePrivate(w, nil)
	} else {
		err = e.Serialize(w)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String() + "\n"
}

func TestParseOpenPGPKeys(t *testing.T) {
	carol := newEntity(t, "Carol", "carol@example.com", nil)
	sam := newEntity(t, "Sam", "sam@example.com", nil)
	text := "# team keys\n\n" + armored(t, carol, false) + "\n# Sam\n" + armored(t, sam, false)
	keyring, lines, err := parseOpenPGPKeys("keys.asc", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(keyring) != 2 || lines[keyring[0]] != 3 || lines[keyring[1]] <= lines[keyring[0]] {
		t.Fatalf("%d keys at lines %v", len(keyring), lines)
	}
	if !bytes.Equal(keyring[1].PrimaryKey.Fingerprint, sam.PrimaryKey.Fingerprint) {
		t.Error("the second block's key was not read")
	}
	if keyring, _, err := parseOpenPGPKeys("keys.asc", []byte("\n# nothing yet\n")); err != nil || len(keyring) != 0 {
		t.Errorf("a file without keys: %v %v", keyring, err)
	}
}

// TestParseOpenPGPKeysRefusals: a key file that cannot be read whole is
// an error at its line, never a file with a key silently missing.
func TestParseOpenPGPKeysRefusals(t *testing.T) {
	carol := newEntity(t, "Carol", "carol@example.com", nil)
	public := armored(t, carol, false)
	private := armored(t, carol, true)
	lines := strings.Split(public, "\n")
	body := lines[2] // the first line of base64 after the header and the blank line
	flipped := strings.Replace(public, body, strings.ToUpper(body[:10])+body[10:], 1)
	privateInPublicArmor := strings.ReplaceAll(private, "PRIVATE KEY BLOCK", "PUBLIC KEY BLOCK")
	cases := []struct {
		name, text string
		line       int
		mention    string
	}{
		{"text outside a block", "Carol's key:\n" + public, 1, "not part of an armored"},
		{"text after a block", public + "trailing words\n", len(lines), "not part of an armored"},
		{"private key", "\n" + private, 2, "PRIVATE key"},
		{"private packets in a public block", privateInPublicArmor, 1, "private key"},
		{"no end line", strings.Join(lines[:len(lines)-3], "\n"), 1, "no -----END"},
		{"another kind of block", strings.ReplaceAll(public, "PUBLIC KEY BLOCK", "SIGNATURE"), 1, `"PGP SIGNATURE" block`},
		{"damaged body", flipped, 1, "cannot be read"},
		{"empty block", "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n-----END PGP PUBLIC KEY BLOCK-----\n", 1, "cannot be read"},
		{"second block broken", public + "\n" + flipped, len(lines) + 1, "cannot be read"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := parseOpenPGPKeys("keys.asc", []byte(tc.text))
			var fe *FileError
			if !errors.As(err, &fe) || fe.File != "keys.asc" || fe.Line != tc.line || !strings.Contains(fe.Msg, tc.mention) {
				t.Errorf("%v, want keys.asc:%d mentioning %q", err, tc.line, tc.mention)
			}
			if _, err := NewPolicy(Sources{OpenPGPKeysPath: "keys.asc", OpenPGPKeys: []byte(tc.text)}); err == nil {
				t.Error("NewPolicy accepts the file")
			}
		})
	}
}

// TestVerifyOpenPGPInGo covers what gpg will not produce: signatures over
// a payload with keys made in Go, judged at chosen times.
func TestVerifyOpenPGPInGo(t *testing.T) {
	created := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	config := &packet.Config{Time: func() time.Time { return created }, KeyLifetimeSecs: 86400 * 30}
	carol := newEntity(t, "Carol", "carol@example.com", config)
	policy, err := NewPolicy(Sources{OpenPGPKeysPath: "keys.asc", OpenPGPKeys: []byte(armored(t, carol, false))})
	if err != nil {
		t.Fatal(err)
	}
	payload := []byte("tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor C <carol@example.com> 1704067200 +0000\ncommitter C <carol@example.com> 1704067200 +0000\n\nmsg\n")
	var sig bytes.Buffer
	if err := openpgp.ArmoredDetachSign(&sig, carol, bytes.NewReader(payload), config); err != nil {
		t.Fatal(err)
	}
	c := Commit{Signature: sig.Bytes(), Payload: payload, CommitterEmail: "carol@example.com", CommitterTime: created}
	for _, tc := range []struct {
		now  time.Time
		want Verdict
	}{
		{created.Add(time.Hour), Valid},
		{created.Add(-time.Hour), KeyExpired},          // the key is not yet valid
		{created.Add(31 * 24 * time.Hour), KeyExpired}, // the key has expired
	} {
		if st := policy.Verify(c, tc.now); st.Verdict != tc.want {
			t.Errorf("at %v: %v (%s), want %v", tc.now, st.Verdict, st.Detail, tc.want)
		}
	}
	twice := append(append([]byte{}, sig.Bytes()...), sig.Bytes()...)
	doubled := doubleSignature(t, sig.Bytes())
	for name, s := range map[string][]byte{
		"two armored blocks":               twice,
		"two signature packets in a block": doubled,
		"a public key instead":             []byte(strings.ReplaceAll(armored(t, carol, false), "PUBLIC KEY BLOCK", "SIGNATURE")),
		"damaged armor":                    bytes.Replace(sig.Bytes(), []byte("\n\n"), []byte("\n\n!"), 1),
	} {
		st := policy.Verify(Commit{Signature: s, Payload: payload, CommitterEmail: "carol@example.com"}, created.Add(time.Hour))
		if st.Verdict != BadSignature {
			t.Errorf("%s: %v (%s), want bad-signature", name, st.Verdict, st.Detail)
		}
	}
}

// doubleSignature re-armors a signature with its packet repeated.
func doubleSignature(t *testing.T, armoredSig []byte) []byte {
	t.Helper()
	block, err := armor.Decode(bytes.NewReader(armoredSig))
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	if _, err := body.ReadFrom(block.Body); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w, err := armor.Encode(&out, "PGP SIGNATURE", nil)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(body.Bytes())
	w.Write(body.Bytes())
	w.Close()
	return out.Bytes()
}

func openpgpSign(w *bytes.Buffer, e *openpgp.Entity, payload []byte) error {
	return openpgp.ArmoredDetachSign(w, e, bytes.NewReader(payload), nil)
}
