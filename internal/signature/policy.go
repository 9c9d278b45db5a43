package signature

import (
	"fmt"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
)

// FileError is a problem in a key file, at a line.
type FileError struct {
	File string
	Line int
	Msg  string
}

// Error returns "file:line: message".
func (e *FileError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }

// Sources are the key files of a policy: their paths (for messages) and
// contents. An empty path means the file is not configured.
type Sources struct {
	// AllowedSignersPath names a file in git's gpg.ssh.allowedSignersFile
	// format, whose contents are AllowedSigners.
	AllowedSignersPath string
	AllowedSigners     []byte
	// OpenPGPKeysPath names a file of armored OpenPGP public keys, whose
	// contents are OpenPGPKeys.
	OpenPGPKeysPath string
	OpenPGPKeys     []byte
}

// Policy is the set of keys allowed to sign commits, and for which
// e-mails. It is read-only once built and safe for concurrent use.
type Policy struct {
	signersFile string
	signers     []allowedSigner
	// byKey indexes signers by the wire form of their key.
	byKey map[string][]int

	keysFile string
	keyring  openpgp.EntityList
	// keyLine is the line of the armored block each key comes from.
	keyLine map[*openpgp.Entity]int
}

// NewPolicy parses the key files. Any malformed line or block is a
// *FileError: a broken policy must fail the check, never lose a key or a
// restriction. valid-after/valid-before times written without Z are read
// in the local time zone, as ssh-keygen reads them.
func NewPolicy(src Sources) (*Policy, error) {
	return newPolicy(src, time.Local)
}

func newPolicy(src Sources, local *time.Location) (*Policy, error) {
	p := &Policy{signersFile: src.AllowedSignersPath, keysFile: src.OpenPGPKeysPath, byKey: map[string][]int{}}
	if src.AllowedSignersPath != "" {
		signers, err := parseAllowedSigners(src.AllowedSignersPath, src.AllowedSigners, local)
		if err != nil {
			return nil, err
		}
		p.signers = signers
		for i, s := range signers {
			k := string(s.key.Marshal())
			p.byKey[k] = append(p.byKey[k], i)
		}
	}
	if src.OpenPGPKeysPath != "" {
		keyring, lines, err := parseOpenPGPKeys(src.OpenPGPKeysPath, src.OpenPGPKeys)
		if err != nil {
			return nil, err
		}
		p.keyring, p.keyLine = keyring, lines
	}
	return p, nil
}

// entry names an allowed-signers line for messages.
func (p *Policy) entry(s *allowedSigner) string {
	return fmt.Sprintf("%s:%d", p.signersFile, s.line)
}
