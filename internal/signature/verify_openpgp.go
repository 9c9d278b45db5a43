package signature

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/ProtonMail/go-crypto/openpgp"
	"github.com/ProtonMail/go-crypto/openpgp/armor"
	pgperrors "github.com/ProtonMail/go-crypto/openpgp/errors"
	"github.com/ProtonMail/go-crypto/openpgp/packet"
)

// verifyOpenPGP judges an OpenPGP signature as gpg --verify does for git,
// with the key file as the keyring: the signature must verify, and the key
// (primary key and signing subkey) must be neither revoked nor expired at
// the time of verification now — gpg reports EXPKEYSIG or REVKEYSIG then,
// and git verify-commit fails, even for a commit signed while the key was
// valid. The principal is a user ID of the key whose e-mail is the
// committer's (compared case-insensitively), not revoked and not expired.
func (p *Policy) verifyOpenPGP(c Commit, now time.Time) Status {
	st := Status{Format: FormatOpenPGP}
	sig, body, err := readDetachedSignature(c.Signature)
	if err != nil {
		st.Verdict, st.Detail = BadSignature, fmt.Sprintf("the OpenPGP signature cannot be read: %v", err)
		return st
	}
	st.Key = issuerName(sig)
	if len(p.keyring.KeysById(*sig.IssuerKeyId)) == 0 {
		st.Verdict, st.Detail = UnknownKey, p.unknownOpenPGPKey(st.Key)
		return st
	}
	config := &packet.Config{Time: func() time.Time { return now }}
	_, signer, err := openpgp.VerifyDetachedSignature(p.keyring, bytes.NewReader(c.Payload), bytes.NewReader(body), config)
	switch {
	case errors.Is(err, pgperrors.ErrKeyRevoked):
		st.Verdict, st.Detail = KeyRevoked, fmt.Sprintf("the OpenPGP key %s (or its signing subkey or primary user ID) has been revoked", st.Key)
	case errors.Is(err, pgperrors.ErrKeyExpired):
		st.Verdict, st.Detail = KeyExpired, fmt.Sprintf("the OpenPGP key %s has expired (or is not yet valid) at the time of verification %s: extend its expiry and update %s", st.Key, now.UTC().Format(time.RFC3339), p.keysFile)
	case errors.Is(err, pgperrors.ErrSignatureExpired):
		st.Verdict, st.Detail = KeyExpired, fmt.Sprintf("the OpenPGP signature or a self-signature of key %s has expired, or is dated after the time of verification %s", st.Key, now.UTC().Format(time.RFC3339))
	case errors.Is(err, pgperrors.ErrUnknownIssuer):
		st.Verdict, st.Detail = BadSignature, fmt.Sprintf("the OpenPGP key %s is in %s but is not a signing key", st.Key, p.keysFile)
	case err != nil:
		st.Verdict, st.Detail = BadSignature, "the OpenPGP signature does not match the commit: the commit was changed after it was signed, or the signature was taken from another commit"
	}
	if err != nil {
		return st
	}
	var emails []string
	for _, id := range identities(signer) {
		if id.SelfSignature == nil || id.Revoked(now) || id.SelfSignature.SigExpired(now) {
			continue
		}
		if strings.EqualFold(id.UserId.Email, c.CommitterEmail) {
			st.Verdict, st.Signer = Valid, id.Name
			st.Entry = fmt.Sprintf("%s:%d", p.keysFile, p.keyLine[signer])
			return st
		}
		emails = append(emails, fmt.Sprintf("%q", id.UserId.Email))
	}
	st.Verdict = PrincipalMismatch
	st.Detail = fmt.Sprintf("the OpenPGP key %s has the e-mails %s, not the committer e-mail %q: commit with one of them, or add a user ID with it to the key", st.Key, strings.Join(emails, ", "), c.CommitterEmail)
	return st
}

// readDetachedSignature decodes an armored detached signature that holds
// exactly one signature packet naming its issuer; body is the packet's
// binary form.
func readDetachedSignature(armored []byte) (*packet.Signature, []byte, error) {
	const end = "-----END PGP SIGNATURE-----"
	if i := bytes.Index(armored, []byte(end)); i < 0 || len(bytes.TrimSpace(armored[i+len(end):])) != 0 {
		return nil, nil, errors.New("it is not exactly one armored PGP SIGNATURE block")
	}
	block, err := armor.Decode(bytes.NewReader(armored))
	if err != nil {
		return nil, nil, err
	}
	if block.Type != "PGP SIGNATURE" {
		return nil, nil, fmt.Errorf("a %q block, not a PGP SIGNATURE", block.Type)
	}
	body, err := io.ReadAll(block.Body)
	if err != nil {
		return nil, nil, err
	}
	packets := packet.NewReader(bytes.NewReader(body))
	var sig *packet.Signature
	for n := 0; ; n++ {
		pkt, err := packets.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		s, ok := pkt.(*packet.Signature)
		if !ok || n > 0 {
			return nil, nil, errors.New("a commit signature is exactly one signature packet")
		}
		sig = s
	}
	if sig == nil {
		return nil, nil, errors.New("it holds no signature")
	}
	if sig.IssuerKeyId == nil {
		return nil, nil, errors.New("it does not name the key that made it")
	}
	return sig, body, nil
}

// issuerName names the key a signature claims to be made by: its
// fingerprint when the signature carries one, else its key ID.
func issuerName(sig *packet.Signature) string {
	if len(sig.IssuerFingerprint) > 0 {
		return fmt.Sprintf("%X", sig.IssuerFingerprint)
	}
	return fmt.Sprintf("%016X", *sig.IssuerKeyId)
}

// identities returns the key's user IDs in a stable order.
func identities(e *openpgp.Entity) []*openpgp.Identity {
	out := make([]*openpgp.Identity, 0, len(e.Identities))
	for _, id := range e.Identities {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (p *Policy) unknownOpenPGPKey(name string) string {
	if p.keysFile == "" {
		return fmt.Sprintf("signed with the OpenPGP key %s, but no OpenPGP key file is configured (signatures.openpgp-keys)", name)
	}
	return fmt.Sprintf("the OpenPGP key %s is not in %s: only a key listed there counts as proof of who signed", name, p.keysFile)
}
