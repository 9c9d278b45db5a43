package signature

import (
	"bytes"
	"crypto/rsa"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// allowedSigner is one line of an allowed-signers file.
type allowedSigner struct {
	line int
	// principals is the line's pattern list, as written.
	principals string
	// namespaces is the namespaces= pattern list; hasNamespaces says whether
	// the option is present (namespaces="" allows no namespace at all).
	namespaces    string
	hasNamespaces bool
	// validAfter and validBefore are zero when the option is absent.
	validAfter, validBefore time.Time
	key                     ssh.PublicKey
}

// blobType returns the type of the key blob that must follow the key type
// name at the start of a key, for every name OpenSSH 9.2 reads there (the
// rsa-sha2-* and webauthn names are aliases of the key type they sign with),
// except DSA: its keys are insecure and no longer read by OpenSSH 9.8.
func blobType(name string) (string, bool) {
	switch name {
	case ssh.KeyAlgoRSASHA256, ssh.KeyAlgoRSASHA512:
		return ssh.KeyAlgoRSA, true
	case ssh.CertAlgoRSASHA256v01, ssh.CertAlgoRSASHA512v01:
		return ssh.CertAlgoRSAv01, true
	case "webauthn-sk-ecdsa-sha2-nistp256@openssh.com":
		return ssh.KeyAlgoSKECDSA256, true
	case ssh.KeyAlgoED25519, ssh.KeyAlgoSKED25519, ssh.KeyAlgoECDSA256, ssh.KeyAlgoECDSA384,
		ssh.KeyAlgoECDSA521, ssh.KeyAlgoSKECDSA256, ssh.KeyAlgoRSA,
		ssh.CertAlgoED25519v01, ssh.CertAlgoSKED25519v01, ssh.CertAlgoECDSA256v01,
		ssh.CertAlgoECDSA384v01, ssh.CertAlgoECDSA521v01, ssh.CertAlgoSKECDSA256v01,
		ssh.CertAlgoRSAv01:
		return name, true
	}
	return "", false
}

// parseAllowedSigners reads git's gpg.ssh.allowedSignersFile format line by
// line as ssh-keygen -Y verify reads it (OpenSSH's
// parse_principals_key_and_options and sshsigopt_parse). Where ssh-keygen
// logs a malformed line and skips it, this is an error naming the file and
// line: a broken policy must never silently drop a key or a restriction.
// local is the zone of valid-after/valid-before times written without Z.
func parseAllowedSigners(file string, data []byte, local *time.Location) ([]allowedSigner, error) {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, &FileError{File: file, Line: 1, Msg: "starts with a UTF-8 byte order mark, which ssh-keygen would read as part of the first principal: save the file without it"}
	}
	var out []allowedSigner
	for n, raw := range strings.Split(string(data), "\n") {
		s, err := parseSignerLine(raw, local)
		if err != nil {
			return nil, &FileError{File: file, Line: n + 1, Msg: err.Error()}
		}
		if s != nil {
			s.line = n + 1
			out = append(out, *s)
		}
	}
	return out, nil
}

// parseSignerLine parses one line (without its newline); blank and comment
// lines give nil.
func parseSignerLine(line string, local *time.Location) (*allowedSigner, error) {
	if strings.IndexByte(line, 0) >= 0 {
		return nil, fmt.Errorf("holds a NUL byte")
	}
	cp := strings.TrimLeft(line, " \t")
	if strings.Trim(cp, " \t\r") == "" || cp[0] == '#' {
		return nil, nil
	}
	principals, rest, ok := principalsField(cp)
	if !ok {
		return nil, fmt.Errorf("is not `principals [options] keytype base64-key`: %s", describeShort(line))
	}
	s := &allowedSigner{principals: principals}
	if f := strings.Fields(rest); len(f) > 0 && (f[0] == "ssh-dss" || len(f) > 1 && f[1] == "ssh-dss") {
		return nil, fmt.Errorf("has a DSA key (ssh-dss), which is insecure and not accepted: list an ed25519, ECDSA or RSA key")
	}
	key, ok := readKey(rest)
	if !ok {
		end, quotesClosed := pastOptions(rest)
		if !quotesClosed {
			return nil, fmt.Errorf("has options with an unterminated quote")
		}
		if end == len(rest) {
			return nil, fmt.Errorf("has no key after the principals %q", principals)
		}
		opts := rest[:end]
		if key, ok = readKey(strings.TrimLeft(rest[end+1:], " \t")); !ok {
			return nil, fmt.Errorf("has no valid key after the options %q (a key is a type such as ssh-ed25519, a space and the base64 key as in a .pub file)", opts)
		}
		if err := s.parseOptions(opts, local); err != nil {
			return nil, err
		}
	}
	s.key = key
	return s, nil
}

// principalsField splits the first field off cp as OpenSSH's strdelimw
// does: up to whitespace, or with a double quote removed and the field
// running on to the next double quote (so a quoted field may hold spaces).
// ok is false when the line has nothing after the field.
func principalsField(cp string) (field, rest string, ok bool) {
	const delims = " \t\r\n\""
	i := strings.IndexAny(cp, delims)
	if i < 0 {
		return "", "", false
	}
	if cp[i] == '"' {
		j := strings.IndexByte(cp[i+1:], '"')
		if j < 0 {
			return "", "", false
		}
		field = cp[:i] + cp[i+1:i+1+j]
		return field, strings.TrimLeft(cp[i+2+j:], " \t\r\n"), true
	}
	return cp[:i], strings.TrimLeft(cp[i+1:], " \t\r\n"), true
}

// readKey parses `type base64 [comment]` at the start of s as OpenSSH's
// sshkey_read does: the type must be followed by a space or tab, the base64
// runs to the next space or tab, and the blob's own type must be the one
// named (or the key type an alias such as rsa-sha2-512 stands for).
func readKey(s string) (ssh.PublicKey, bool) {
	sp := strings.IndexAny(s, " \t")
	if sp < 0 {
		return nil, false
	}
	want, known := blobType(s[:sp])
	if !known {
		return nil, false
	}
	b64 := strings.TrimLeft(s[sp:], " \t")
	if end := strings.IndexAny(b64, " \t"); end >= 0 {
		b64 = b64[:end]
	}
	// OpenSSH's base64 decoder skips white space inside the field.
	b64 = strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' || r == '\v' || r == '\f' {
			return -1
		}
		return r
	}, b64)
	blob, err := base64.StdEncoding.Strict().DecodeString(b64)
	if err != nil || len(blob) == 0 {
		return nil, false
	}
	key, err := ssh.ParsePublicKey(blob)
	if err != nil || key.Type() != want || weakRSA(key) {
		return nil, false
	}
	return key, true
}

// weakRSA reports whether key is an RSA key (or certificate of one) shorter
// than the 1024 bits below which OpenSSH refuses to read it.
func weakRSA(key ssh.PublicKey) bool {
	if cert, ok := key.(*ssh.Certificate); ok {
		key = cert.Key
	}
	ck, ok := key.(ssh.CryptoPublicKey)
	if !ok {
		return false
	}
	pub, ok := ck.CryptoPublicKey().(*rsa.PublicKey)
	return ok && pub.N.BitLen() < 1024
}

// pastOptions returns where the options field starting s ends (the first
// space or tab outside double quotes, or len(s)), as OpenSSH's
// sshkey_advance_past_options does, and whether every quote was closed.
func pastOptions(s string) (int, bool) {
	quoted := false
	i := 0
	for ; i < len(s) && (quoted || (s[i] != ' ' && s[i] != '\t')); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '"':
			i++
		case s[i] == '"':
			quoted = !quoted
		}
	}
	return i, !quoted
}

// parseOptions reads the comma-separated options as OpenSSH's
// sshsigopt_parse does (keywords case-insensitive, values in double quotes).
// cert-authority is refused: small-hook does not verify certificates.
func (s *allowedSigner) parseOptions(opts string, local *time.Location) error {
	o := opts
	for o != "" {
		switch {
		case hasPrefixFold(o, "cert-authority"):
			return fmt.Errorf("has the cert-authority option: small-hook does not support SSH certificates; list each signer's own public key instead")
		case hasPrefixFold(o, "namespaces="):
			if s.hasNamespaces {
				return fmt.Errorf("has more than one namespaces option")
			}
			v, after, err := dequote(o[len("namespaces="):])
			if err != nil {
				return fmt.Errorf("has a namespaces option %s", err)
			}
			s.namespaces, s.hasNamespaces, o = v, true, after
		case hasPrefixFold(o, "valid-after=") || hasPrefixFold(o, "valid-before="):
			name := o[:strings.IndexByte(o, '=')]
			v, after, err := dequote(o[len(name)+1:])
			if err != nil {
				return fmt.Errorf("has a %s option %s", strings.ToLower(name), err)
			}
			dst := &s.validAfter
			if strings.EqualFold(name, "valid-before") {
				dst = &s.validBefore
			}
			if !dst.IsZero() {
				return fmt.Errorf("has more than one %s option", strings.ToLower(name))
			}
			t, err := parseSignerTime(v, local)
			if err != nil {
				return fmt.Errorf("has a %s time %q that %s", strings.ToLower(name), v, err)
			}
			*dst, o = t, after
		}
		if o == "" {
			break
		}
		if o[0] != ',' {
			return fmt.Errorf("has an unknown option at %q (known: namespaces=\"…\", valid-after=\"…\", valid-before=\"…\")", o)
		}
		if o = o[1:]; o == "" {
			return fmt.Errorf("has options that end with a comma")
		}
	}
	if !s.validAfter.IsZero() && !s.validBefore.IsZero() && !s.validBefore.After(s.validAfter) {
		return fmt.Errorf("has a valid-before time that is not after its valid-after time")
	}
	return nil
}

// dequote reads a double-quoted option value at the start of s as OpenSSH's
// opt_dequote does (\" stands for a quote) and returns it with the rest of s.
func dequote(s string) (value, rest string, err error) {
	if !strings.HasPrefix(s, `"`) {
		return "", "", fmt.Errorf("without its opening double quote")
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '"':
			i++
			b.WriteByte('"')
		case s[i] == '"':
			return b.String(), s[i+1:], nil
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", fmt.Errorf("without its closing double quote")
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// describeShort quotes the start of a line for a message, never a whole
// key.
func describeShort(line string) string {
	const max = 40
	if len(line) > max {
		line = line[:max] + "…"
	}
	return fmt.Sprintf("%q", line)
}
