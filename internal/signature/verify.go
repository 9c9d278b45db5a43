package signature

import (
	"bytes"
	"time"
)

// Commit is what Verify needs of one commit.
type Commit struct {
	// Signature is the commit's gpgsig header without its leading key and
	// continuation spaces: go-git's object.Commit.PGPSignature. Empty when
	// the commit is not signed.
	Signature []byte
	// Payload is the commit object without its signature headers, the
	// bytes git signs: what go-git's Commit.EncodeWithoutSignature writes.
	Payload []byte
	// CommitterEmail is the e-mail of the commit's committer line.
	CommitterEmail string
	// CommitterTime is the committer time, when an SSH key's
	// valid-after/valid-before are judged (git passes it to ssh-keygen as
	// -Overify-time).
	CommitterTime time.Time
}

// The armor lines by which git tells signature formats apart
// (gpg-interface.c): a signature is of the format whose line it starts
// with.
const (
	sshArmor        = "-----BEGIN SSH SIGNATURE-----"
	pgpArmor        = "-----BEGIN PGP SIGNATURE-----"
	pgpMessageArmor = "-----BEGIN PGP MESSAGE-----"
	x509Armor       = "-----BEGIN SIGNED MESSAGE-----"
)

// Verify judges one commit's signature against the policy as `git
// verify-commit` does with gpg.ssh.allowedSignersFile set to the
// allowed-signers file and a GNUPGHOME holding the OpenPGP key file, and
// additionally requires the key to be allowed for the committer's e-mail
// (git only reports whom an SSH key belongs to; GitHub requires the e-mail
// too). now is the time of verification, when OpenPGP key expiry and
// revocation are judged as gpg judges them; it also stands in for the
// committer time of a commit dated at or before 1970, as git then lets
// ssh-keygen use the current time.
//
// Problems are looked for in this order: Unsigned, Unsupported,
// BadSignature (malformed), UnknownKey; then for SSH WrongNamespace (the
// signature's namespace), BadSignature (does not match the payload),
// PrincipalMismatch, WrongNamespace (the namespaces= option) and KeyExpired
// (valid-after/valid-before); for OpenPGP BadSignature, KeyRevoked,
// KeyExpired and PrincipalMismatch. An SSH key listed on several lines is
// allowed when any line allows it; otherwise the problem is
// PrincipalMismatch when no line names the committer, else the problem of
// the first line that does.
func (p *Policy) Verify(c Commit, now time.Time) Status {
	sig := c.Signature
	switch {
	case len(bytes.TrimSpace(sig)) == 0:
		return Status{Format: FormatNone, Verdict: Unsigned, Detail: "the commit is not signed"}
	case bytes.HasPrefix(sig, []byte(sshArmor)):
		return p.verifySSH(c, now)
	case bytes.HasPrefix(sig, []byte(pgpArmor)):
		return p.verifyOpenPGP(c, now)
	case bytes.HasPrefix(sig, []byte(pgpMessageArmor)):
		return Status{Format: FormatOpenPGP, Verdict: BadSignature, Detail: "the gpgsig header holds an OpenPGP message, not a detached signature"}
	case bytes.HasPrefix(sig, []byte(x509Armor)):
		return Status{Format: FormatX509, Verdict: Unsupported, Detail: "an X.509 (gpgsm) signature: small-hook verifies SSH and OpenPGP signatures only; sign with gpg.format=ssh or openpgp"}
	}
	return Status{Format: FormatUnknown, Verdict: Unsupported, Detail: "the gpgsig header does not start with the armor line of any signature format git knows"}
}
