package signature

import (
	"bytes"
	"encoding/pem"
	"fmt"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
	"golang.org/x/crypto/ssh"
)

// GitSettings are git's signing settings, as `git config` reports them in
// the repository, and the contents of the key files they name. The
// pre-commit and commit-msg hooks run before the commit and its signature
// exist; Readiness tells from these settings whether the commit will be
// signed by an allowed key. (git commit -S signs whatever commit.gpgsign
// says; a hook cannot see that flag.)
type GitSettings struct {
	// GPGSign is commit.gpgsign.
	GPGSign bool
	// Format is gpg.format: "" (git's default, openpgp), "openpgp", "ssh"
	// or "x509".
	Format string
	// SigningKey is user.signingkey as configured: for SSH a key file's
	// path, a literal "key::ssh-ed25519 AAAA…" (or, deprecated, a literal
	// "ssh-ed25519 AAAA…"); for OpenPGP a key ID or fingerprint (optionally
	// 0x-prefixed or ending in !), or a user ID.
	SigningKey string
	// KeyFile is, for SSH with a path in SigningKey, the contents of that
	// file, read after expanding a leading ~/ to the home directory as git
	// does (a relative path is relative to the directory git runs in, the
	// work tree's top for hooks); nil when it cannot be read. When it is an
	// OpenSSH private key, only the public key stored unencrypted at its
	// head is read.
	KeyFile []byte
	// PublicKeyFile is the contents of the file SigningKey + ".pub", nil
	// when there is none.
	PublicKeyFile []byte
	// CommitterEmail is the e-mail the commit will carry
	// (GIT_COMMITTER_EMAIL, else user.email).
	CommitterEmail string
}

// Readiness says whether commits made now will carry a signature the
// policy accepts.
type Readiness struct {
	// Signed is true when commits made with the settings will be signed by
	// a key the policy allows for the committer e-mail at this time.
	Signed bool
	// Key names the key that will sign, when it is known (SSH: its SHA256
	// fingerprint; OpenPGP: its fingerprint).
	Key string
	// Advice says what to set when Signed is false.
	Advice string
}

// Readiness judges git's signing settings against the policy at time now,
// with the checks Verify applies to a signed commit: the key must be
// listed, for the committer e-mail, allow the git namespace and be valid
// now. It reads nothing: the caller passes the settings and key files.
func (p *Policy) Readiness(s GitSettings, now time.Time) Readiness {
	var r Readiness
	switch s.Format {
	case "", "openpgp":
		r = p.openPGPReadiness(s, now)
	case "ssh":
		r = p.sshReadiness(s, now)
	case "x509":
		r.Advice = "gpg.format is x509, which small-hook cannot verify: sign with SSH (git config gpg.format ssh) or OpenPGP"
	default:
		r.Advice = fmt.Sprintf("gpg.format is %q, which git does not know: set it to ssh or openpgp", s.Format)
	}
	if !s.GPGSign {
		advice := "commits are not signed: run `git config commit.gpgsign true`"
		if r.Advice != "" {
			advice += "; also, " + r.Advice
		}
		r.Signed, r.Advice = false, advice
	}
	return r
}

func (p *Policy) sshReadiness(s GitSettings, now time.Time) Readiness {
	if p.signersFile == "" {
		return Readiness{Advice: "gpg.format is ssh but no allowed-signers file is configured (signatures.allowed-signers in .small-hook.yml), so no SSH signature counts"}
	}
	if s.SigningKey == "" {
		return Readiness{Advice: "user.signingkey is not set: point it at the public key of a key listed for your e-mail in " + p.signersFile + " (git config user.signingkey ~/.ssh/id_ed25519.pub)"}
	}
	key, err := signingPublicKey(s)
	if err != nil {
		return Readiness{Advice: err.Error()}
	}
	fp := ssh.FingerprintSHA256(key)
	entries := p.byKey[string(key.Marshal())]
	if len(entries) == 0 {
		return Readiness{Key: fp, Advice: fmt.Sprintf("the signing key %s (user.signingkey) is not in %s: add the line `%s namespaces=\"git\" %s` there, or set user.signingkey to a key that is listed", fp, p.signersFile, s.CommitterEmail, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(key))))}
	}
	if _, verdict, detail := p.judgeSSHEntries(entries, s.CommitterEmail, now); verdict != Valid {
		return Readiness{Key: fp, Advice: fmt.Sprintf("the signing key %s will not count: %s", fp, detail)}
	}
	return Readiness{Signed: true, Key: fp}
}

// signingPublicKey finds the public key git will sign with, in the order
// ssh-keygen -Y sign looks for it: a literal key, the key file read as a
// public key, the .pub file, the public key at the head of an OpenSSH
// private key file.
func signingPublicKey(s GitSettings) (ssh.PublicKey, error) {
	if literal, ok := strings.CutPrefix(s.SigningKey, "key::"); ok || strings.HasPrefix(s.SigningKey, "ssh-") {
		if !ok {
			literal = s.SigningKey
		}
		key, _, _, _, err := ssh.ParseAuthorizedKey([]byte(literal))
		if err != nil {
			return nil, fmt.Errorf("user.signingkey holds a literal SSH key that cannot be read: %v", err)
		}
		return key, nil
	}
	for _, data := range [][]byte{s.KeyFile, s.PublicKeyFile} {
		if key, _, _, _, err := ssh.ParseAuthorizedKey(data); err == nil {
			return key, nil
		}
	}
	if key, ok := publicKeyOfPrivate(s.KeyFile); ok {
		return key, nil
	}
	return nil, fmt.Errorf("cannot find the public key of user.signingkey %s: it must be a public key file, or a key with its .pub file beside it (ssh-keygen -y -f KEY > KEY.pub)", s.SigningKey)
}

// publicKeyOfPrivate reads the public key that an OpenSSH private key file
// ("openssh-key-v1") stores unencrypted before the private part, which it
// never touches.
func publicKeyOfPrivate(data []byte) (ssh.PublicKey, bool) {
	block, _ := pem.Decode(data)
	const magic = "openssh-key-v1\x00"
	if block == nil || block.Type != "OPENSSH PRIVATE KEY" || !bytes.HasPrefix(block.Bytes, []byte(magic)) {
		return nil, false
	}
	var head struct {
		Cipher, KDF, KDFOptions string
		Keys                    uint32
		PublicKey               []byte
		Rest                    []byte `ssh:"rest"`
	}
	if err := ssh.Unmarshal(block.Bytes[len(magic):], &head); err != nil || head.Keys != 1 {
		return nil, false
	}
	key, err := ssh.ParsePublicKey(head.PublicKey)
	return key, err == nil
}

func (p *Policy) openPGPReadiness(s GitSettings, now time.Time) Readiness {
	if p.keysFile == "" {
		return Readiness{Advice: "gpg.format is openpgp (git's default) but no OpenPGP key file is configured (signatures.openpgp-keys in .small-hook.yml), so no OpenPGP signature counts; to sign with SSH: git config gpg.format ssh"}
	}
	id, ok := keyIDSetting(s.SigningKey)
	if !ok {
		return Readiness{Advice: fmt.Sprintf("user.signingkey is %q, so gpg chooses the key from your own keyring: set user.signingkey to the fingerprint of a key in %s that has your e-mail %q", s.SigningKey, p.keysFile, s.CommitterEmail)}
	}
	var entity *openpgp.Entity
	for _, e := range p.keyring {
		if entityHasKey(e, id) {
			entity = e
			break
		}
	}
	if entity == nil {
		return Readiness{Advice: fmt.Sprintf("the OpenPGP key %s (user.signingkey) is not in %s: add its public key (gpg --export --armor %s) or sign with a key that is there", id, p.keysFile, id)}
	}
	fp := fmt.Sprintf("%X", entity.PrimaryKey.Fingerprint)
	if _, ok := entity.SigningKey(now); !ok {
		return Readiness{Key: fp, Advice: fmt.Sprintf("the OpenPGP key %s in %s is expired or revoked, or has no key that may sign: extend or replace it and update %s", fp, p.keysFile, p.keysFile)}
	}
	for _, ident := range identities(entity) {
		if ident.SelfSignature != nil && !ident.Revoked(now) && !ident.SelfSignature.SigExpired(now) && strings.EqualFold(ident.UserId.Email, s.CommitterEmail) {
			return Readiness{Signed: true, Key: fp}
		}
	}
	return Readiness{Key: fp, Advice: fmt.Sprintf("the OpenPGP key %s has no valid user ID with your committer e-mail %q: commit with the e-mail of the key, or add it to the key and update %s", fp, s.CommitterEmail, p.keysFile)}
}

// keyIDSetting returns the hexadecimal key ID or fingerprint that
// user.signingkey names (upper case, without 0x or a trailing !), and false
// when it names a user ID or nothing.
func keyIDSetting(v string) (string, bool) {
	v = strings.TrimSuffix(strings.TrimSpace(v), "!")
	if len(v) > 2 && (v[:2] == "0x" || v[:2] == "0X") {
		v = v[2:]
	}
	switch len(v) {
	case 8, 16, 40, 64:
	default:
		return "", false
	}
	for _, c := range v {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return "", false
		}
	}
	return strings.ToUpper(v), true
}

// entityHasKey reports whether the primary key or a subkey of e has the
// fingerprint, long key ID or short key ID id (upper-case hex).
func entityHasKey(e *openpgp.Entity, id string) bool {
	keys := []*packet.PublicKey{e.PrimaryKey}
	for _, sub := range e.Subkeys {
		keys = append(keys, sub.PublicKey)
	}
	for _, k := range keys {
		if id == fmt.Sprintf("%X", k.Fingerprint) || id == strings.ToUpper(k.KeyIdString()) || id == strings.ToUpper(k.KeyIdShortString()) {
			return true
		}
	}
	return false
}
