package signature

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// keyPlaceholder stands for a real public key line in the test tables.
const keyPlaceholder = "KEY"

// TestParseAllowedSignersLikeSSHKeygen parses one-line allowed-signers
// files and compares the outcome with `ssh-keygen -Y find-principals`,
// which lists the principals of the line whose key made a signature (and
// which is valid at -Overify-time). Where ssh-keygen skips a malformed
// line, the parser must refuse the file.
func TestParseAllowedSignersLikeSSHKeygen(t *testing.T) {
	tl := newTool(t)
	keyPath, pub := tl.sshKey("alice")
	_, otherPub := tl.sshKey("other")
	data := tl.write("data", "signed data\n")
	tl.must(tl.dir, nil, nil, "ssh-keygen", "-Y", "sign", "-n", "git", "-f", keyPath, data)
	blob := strings.Fields(pub)[1]
	verifyTime := time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)

	lines := []string{
		"alice@example.com KEY",
		"  alice@example.com KEY",
		"\talice@example.com\t\tKEY",
		"alice@example.com,bob@example.com KEY",
		`"alice smith@example.com" KEY`,
		`x"a b"  KEY`,
		`x"a b"y KEY`,
		`"alice@example.com KEY`,
		`alice@example.com namespaces="git" KEY`,
		`alice@example.com NAMESPACES="git" KEY`,
		`alice@example.com namespaces="a b" KEY`,
		`alice@example.com namespaces="g\"it" KEY`,
		`alice@example.com namespaces="git",valid-after="20240101Z" KEY`,
		`alice@example.com ,namespaces="git" KEY`,
		`alice@example.com namespaces="git",,valid-after="20240101Z" KEY`,
		`alice@example.com valid-after="20240101Z",valid-before="20250101Z" KEY`,
		`alice@example.com Valid-After="202401010000Z" KEY`,
		`alice@example.com valid-after="20240101000000UTC" KEY`,
		`alice@example.com valid-after="20240101000000z" KEY`,
		`alice@example.com valid-before="20240101Z" KEY`,
		`alice@example.com valid-after="20250101Z" KEY`,
		`alice@example.com valid-after="20240531235960Z" KEY`,
		`alice@example.com valid-after="20240531235961Z" KEY`,
		"alice@example.com KEY trailing comment words",
		"alice@example.com KEY\r",
		"alice@example.com ssh-ed25519  " + blob,
		"alice@example.com rsa-sha2-512 " + blob,
		"alice@example.com ssh-rsa " + blob,
		"alice@example.com ssh-ed25519 " + strings.TrimRight(blob, "="),
		"alice@example.com ssh-ed25519 " + blob[:20],
		"alice@example.com ssh-ed25519",
		"alice@example.com",
		"KEY",
		`alice@example.com namespaces=git KEY`,
		`alice@example.com namespaces="git KEY`,
		`alice@example.com foo="bar" KEY`,
		`alice@example.com namespaces="git", KEY`,
		`alice@example.com namespaces="git";valid-after="20240101Z" KEY`,
		`alice@example.com namespaces="a",namespaces="git" KEY`,
		`alice@example.com valid-after="2024" KEY`,
		`alice@example.com valid-after="20241301Z" KEY`,
		`alice@example.com valid-after="20240100Z" KEY`,
		`alice@example.com valid-after="20240101246000Z" KEY`,
		`alice@example.com valid-after="20240101236000Z" KEY`,
		`alice@example.com valid-after="20240101235962Z" KEY`,
		`alice@example.com valid-after="2024010a" KEY`,
		`alice@example.com valid-after="19700101Z" KEY`,
		`alice@example.com valid-after="20240101Z",valid-after="20240102Z" KEY`,
		`alice@example.com valid-after="20250101Z",valid-before="20240101Z" KEY`,
		`alice@example.com valid-after="20240101Z",valid-before="20240101Z" KEY`,
		`alice@example.com valid-after=20240101Z KEY`,
		`alice@example.com no-touch-required KEY`,
		"bob@example.com " + otherPub,
	}
	for _, line := range lines {
		text := strings.ReplaceAll(line, keyPlaceholder, pub) + "\n"
		file := tl.write("allowed", text)
		out, found := tl.run(tl.dir, nil, nil, "ssh-keygen", "-Y", "find-principals", "-f", file, "-s", data+".sig",
			"-Overify-time="+verifyTime.Format("20060102150405")+"Z")
		signers, err := parseAllowedSigners("allowed", []byte(text), time.UTC)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) || fe.Line != 1 || fe.File != "allowed" || !strings.HasPrefix(err.Error(), "allowed:1: ") {
				t.Errorf("%q: error %v does not name the file and line", line, err)
			}
			if found {
				t.Errorf("%q: refused (%v), but ssh-keygen reads it and finds %q", line, err, strings.TrimSpace(out))
			}
			continue
		}
		var ours []string
		for _, s := range signers {
			if string(s.key.Marshal()) == string(mustKey(t, pub).Marshal()) && s.validAt(verifyTime) {
				ours = append(ours, s.principals)
			}
		}
		// find-principals prints the line's principals one a line.
		theirs := strings.Join(strings.Split(strings.TrimSpace(out), "\n"), ",")
		if found != (len(ours) == 1) || found && theirs != ours[0] {
			t.Errorf("%q: ssh-keygen finds %v %q, the parser %q", line, found, theirs, ours)
		}
	}
}

// TestParseAllowedSignersRefusals lists what the parser refuses although
// ssh-keygen would read it (or skip it without a word).
func TestParseAllowedSignersRefusals(t *testing.T) {
	tl := newTool(t)
	_, pub := tl.sshKey("alice")
	cases := []struct {
		text    string
		line    int
		mention string
	}{
		{"alice@example.com cert-authority KEY\n", 1, "does not support SSH certificates"},
		{"*@example.com CERT-AUTHORITY,namespaces=\"git\" KEY\n", 1, "cert-authority"},
		{"\xef\xbb\xbfalice@example.com KEY\n", 1, "byte order mark"},
		{"alice@example.com KEY\nbob@example.com ssh-dss AAAAB3NzaC1kc3MAAACBAP\n", 2, "DSA key"},
		{"# ok\n\nalice@example.com KEY\nbroken line\n", 4, "has no key after the principals"},
		{"alice@example.com KEY\nbob@example.com\x00 KEY\n", 2, "NUL byte"},
		{"alice@example.com namespaces=\"git\" valid-after=\"20240101Z\" KEY\n", 1, "has no valid key after the options"},
	}
	for _, tc := range cases {
		text := strings.ReplaceAll(tc.text, keyPlaceholder, pub)
		_, err := parseAllowedSigners("f", []byte(text), time.UTC)
		var fe *FileError
		if !errors.As(err, &fe) || fe.Line != tc.line || !strings.Contains(fe.Msg, tc.mention) {
			t.Errorf("%q: %v, want line %d mentioning %q", tc.text, err, tc.line, tc.mention)
		}
		if strings.Contains(fmt.Sprint(err), strings.Fields(pub)[1]) {
			t.Errorf("%q: the error quotes the whole key: %v", tc.text, err)
		}
		_, err = NewPolicy(Sources{AllowedSignersPath: ".github/allowed_signers", AllowedSigners: []byte(text)})
		if want := fmt.Sprintf(".github/allowed_signers:%d: ", tc.line); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: NewPolicy: %v, want an error starting %q", tc.text, err, want)
		}
	}
}

func TestParseAllowedSignersFields(t *testing.T) {
	tl := newTool(t)
	_, pub := tl.sshKey("alice")
	text := strings.ReplaceAll(strings.Join([]string{
		"# comment",
		"   # indented comment",
		"",
		"   ",
		"\r",
		`alice@example.com,!eve@example.com namespaces="git,file",valid-after="20240101Z",valid-before="202501011230" KEY comment`,
		`"a b@example.com" KEY`,
	}, "\n"), keyPlaceholder, pub)
	local := time.FixedZone("X", 3*3600)
	signers, err := parseAllowedSigners("f", []byte(text), local)
	if err != nil {
		t.Fatal(err)
	}
	if len(signers) != 2 {
		t.Fatalf("%d signers", len(signers))
	}
	s := signers[0]
	if s.line != 6 || s.principals != "alice@example.com,!eve@example.com" || !s.hasNamespaces || s.namespaces != "git,file" ||
		!s.validAfter.Equal(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)) || !s.validBefore.Equal(time.Date(2025, 1, 1, 9, 30, 0, 0, time.UTC)) {
		t.Errorf("first signer %+v", s)
	}
	if s := signers[1]; s.line != 7 || s.principals != "a b@example.com" || s.hasNamespaces || !s.validAfter.IsZero() || !s.validBefore.IsZero() {
		t.Errorf("second signer %+v", s)
	}
	if got, err := parseAllowedSigners("f", nil, time.UTC); err != nil || len(got) != 0 {
		t.Errorf("empty file: %v %v", got, err)
	}
}

// TestSignerTimesLikeSSHKeygen checks that a valid-after time means the
// same instant to ssh-keygen and to the parser: one second before it the
// key is not found, at it it is. Local times are read in a fixed zone
// given to both.
func TestSignerTimesLikeSSHKeygen(t *testing.T) {
	tl := newTool(t)
	keyPath, pub := tl.sshKey("alice")
	data := tl.write("data", "signed data\n")
	tl.must(tl.dir, nil, nil, "ssh-keygen", "-Y", "sign", "-n", "git", "-f", keyPath, data)
	local := time.FixedZone("XYZ", 3*3600)
	for _, v := range []string{
		"20240601", "202406011230", "20240601123045",
		"20240601Z", "202406011230Z", "20240601123045z", "20240601123045UTC", "20240601utc",
		"20240230Z", "20240431", "20241231235960Z", "20241231235961Z",
	} {
		t0, err := parseSignerTime(v, local)
		if err != nil {
			t.Errorf("%q: %v", v, err)
			continue
		}
		file := tl.write("allowed", fmt.Sprintf("alice@example.com valid-after=%q %s\n", v, pub))
		for _, tc := range []struct {
			at   time.Time
			want bool
		}{{t0.Add(-time.Second), false}, {t0, true}} {
			_, found := tl.run(tl.dir, []string{"TZ=XYZ-3"}, nil, "ssh-keygen", "-Y", "find-principals", "-f", file, "-s", data+".sig",
				"-Overify-time="+tc.at.UTC().Format("20060102150405")+"Z")
			if found != tc.want {
				t.Errorf("valid-after=%q read as %v: ssh-keygen at %v finds the key: %v", v, t0.UTC(), tc.at.UTC(), found)
			}
		}
	}
}

func TestParseSignerTimeErrors(t *testing.T) {
	for _, v := range []string{"", "Z", "UTC", "2024", "2024010", "202401011", "2024010100Z", "20240101000", "202401010000000",
		"20241301", "20240001", "20240132", "20240100", "20240101240000", "20240101006000", "20240101000062",
		"2024-1-01", "2024 101", "+2024010", "19700101Z", "19691231Z", "00000101Z", "20240101ZZ", "20240101 Z", "٢٠٢٤٠١٠١"} {
		if got, err := parseSignerTime(v, time.UTC); err == nil {
			t.Errorf("%q: read as %v", v, got)
		}
	}
}

func mustKey(t *testing.T, line string) interface{ Marshal() []byte } {
	t.Helper()
	key, ok := readKey(line)
	if !ok {
		t.Fatalf("cannot read key %q", line)
	}
	return key
}

// validAt reports whether the line's validity options allow time at.
func (s *allowedSigner) validAt(at time.Time) bool {
	return (s.validAfter.IsZero() || !at.Before(s.validAfter)) && (s.validBefore.IsZero() || !at.After(s.validBefore))
}
