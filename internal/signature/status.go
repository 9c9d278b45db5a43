package signature

import "fmt"

// Format is the kind of signature a commit carries.
type Format string

// The signature formats. git writes SSH and OpenPGP signatures (and X.509
// ones, which small-hook does not verify) into the commit's gpgsig header.
const (
	FormatNone    Format = "none"
	FormatSSH     Format = "ssh"
	FormatOpenPGP Format = "openpgp"
	FormatX509    Format = "x509"
	// FormatUnknown is a gpgsig header that none of git's formats
	// recognises.
	FormatUnknown Format = "unknown"
)

// Verdict is the outcome of verifying one commit: Valid, or exactly one
// problem. The zero value is Unsigned, so a Status that was never filled in
// never passes.
type Verdict int

// The verdicts; Policy.Verify says in which order it looks for problems.
const (
	// Unsigned: the commit has no signature.
	Unsigned Verdict = iota
	// Valid: a key of the policy signed exactly this commit, for the
	// committer's e-mail, at a time the key was valid.
	Valid
	// Unsupported: a signature small-hook cannot verify (X.509, or not a
	// signature at all).
	Unsupported
	// BadSignature: the signature is malformed or does not match the commit
	// (the commit was changed after signing, or the signature was copied
	// from another commit).
	BadSignature
	// UnknownKey: the signing key is in neither key file.
	UnknownKey
	// WrongNamespace: an SSH signature made for another purpose than git
	// (ssh-keygen -Y sign -n file), or a key whose namespaces= option does
	// not allow git.
	WrongNamespace
	// KeyRevoked: an OpenPGP key, signing subkey or user ID that has been
	// revoked.
	KeyRevoked
	// KeyExpired: a key that was expired, or not yet valid, when it signed
	// (SSH: valid-after/valid-before at the committer time; OpenPGP: key and
	// signature expiry at the time of verification, as gpg judges them).
	KeyExpired
	// PrincipalMismatch: the key is allowed, but not for the committer's
	// e-mail.
	PrincipalMismatch
)

// String returns the verdict's stable name, such as "unknown-key".
func (v Verdict) String() string {
	switch v {
	case Unsigned:
		return "unsigned"
	case Valid:
		return "valid"
	case Unsupported:
		return "unsupported"
	case BadSignature:
		return "bad-signature"
	case UnknownKey:
		return "unknown-key"
	case WrongNamespace:
		return "wrong-namespace"
	case KeyRevoked:
		return "key-revoked"
	case KeyExpired:
		return "key-expired"
	case PrincipalMismatch:
		return "principal-mismatch"
	}
	return fmt.Sprintf("verdict(%d)", int(v))
}

// Status is what Verify found about one commit's signature.
type Status struct {
	Format  Format
	Verdict Verdict
	// Signer is who signed, set only when Verdict is Valid: for SSH the
	// committer e-mail the allowed-signers entry accepted, for OpenPGP the
	// key's user ID that carries the committer e-mail.
	Signer string
	// Key identifies the key the signature names (SSH: its SHA256
	// fingerprint; OpenPGP: the fingerprint, or the key ID when the
	// signature carries no fingerprint). It is what the signature claims:
	// proof only when Verdict is Valid.
	Key string
	// Entry is where the key that verified is listed, as file:line (the
	// allowed-signers line, or the OpenPGP key file), when one is.
	Entry string
	// Detail says what is wrong and how to fix it; empty when Valid.
	Detail string
}

// String describes the status in one line for messages.
func (s Status) String() string {
	switch s.Verdict {
	case Valid:
		return fmt.Sprintf("valid %s signature by %s (key %s, %s)", s.Format, s.Signer, s.Key, s.Entry)
	case Unsigned:
		return "unsigned: " + s.Detail
	}
	return fmt.Sprintf("%s %s signature: %s", s.Verdict, s.Format, s.Detail)
}
