package signature

import (
	"bytes"
	"encoding/pem"
	"fmt"
	"strings"
	"time"

	"github.com/hiddeco/sshsig"
	"golang.org/x/crypto/ssh"
)

// gitNamespace is the SSHSIG namespace git signs commits in.
const gitNamespace = "git"

// verifySSH judges an SSH signature as `ssh-keygen -Y verify -n git -f
// <allowed signers> -I <committer e-mail> -Overify-time=<committer time>`
// does, which is what git runs with the principal it looked up.
func (p *Policy) verifySSH(c Commit, now time.Time) Status {
	st := Status{Format: FormatSSH}
	block, rest := pem.Decode(c.Signature)
	if block == nil || block.Type != sshsig.PEMType || len(block.Headers) != 0 || len(bytes.TrimSpace(rest)) != 0 {
		st.Verdict, st.Detail = BadSignature, "the SSH signature is not exactly one armored SSH SIGNATURE block"
		return st
	}
	sig, err := sshsig.ParseSignature(block.Bytes)
	if err != nil {
		st.Verdict, st.Detail = BadSignature, fmt.Sprintf("the SSH signature cannot be read: %v", err)
		return st
	}
	st.Key = ssh.FingerprintSHA256(sig.PublicKey)
	entries := p.byKey[string(sig.PublicKey.Marshal())]
	if len(entries) == 0 {
		st.Verdict, st.Detail = UnknownKey, p.unknownSSHKey(st.Key)
		return st
	}
	if sig.Namespace != gitNamespace {
		st.Verdict = WrongNamespace
		st.Detail = fmt.Sprintf("the SSH signature was made for the namespace %q, not %q: it was not made by git commit -S (ssh-keygen -Y sign -n %s signs other things, such as files)", sig.Namespace, gitNamespace, sig.Namespace)
		return st
	}
	if err := sshsig.Verify(bytes.NewReader(c.Payload), sig, sig.PublicKey, sig.HashAlgorithm, gitNamespace); err != nil {
		st.Verdict = BadSignature
		st.Detail = "the SSH signature does not match the commit: the commit was changed after it was signed, or the signature was taken from another commit"
		return st
	}
	at := c.CommitterTime
	if at.Unix() <= 0 {
		at = now
	}
	s, verdict, detail := p.judgeSSHEntries(entries, c.CommitterEmail, at)
	st.Verdict, st.Detail = verdict, detail
	if verdict == Valid {
		st.Signer, st.Entry = c.CommitterEmail, p.entry(s)
	}
	return st
}

// judgeSSHEntries decides whether the allowed-signers lines entries, which
// all list the signing key, allow it to sign for email at time at, as
// ssh-keygen does: some line must list a principal pattern matching the
// e-mail, allow the git namespace and be valid at that time. When no line
// does, the problem reported is PrincipalMismatch if no line matches the
// e-mail, and otherwise the problem of the first line (in file order) that
// does. It returns the line that allows the signature, when one does.
func (p *Policy) judgeSSHEntries(entries []int, email string, at time.Time) (*allowedSigner, Verdict, string) {
	var first *allowedSigner
	var verdict Verdict
	var detail string
	var principals []string
	for _, i := range entries {
		s := &p.signers[i]
		if !matchPatternList(email, s.principals) {
			principals = append(principals, fmt.Sprintf("%q (%s)", s.principals, p.entry(s)))
			continue
		}
		v, d := s.judge(at)
		if v == Valid {
			return s, Valid, ""
		}
		if first == nil {
			first, verdict, detail = s, v, fmt.Sprintf("%s (%s)", d, p.entry(s))
		}
	}
	if first == nil {
		return nil, PrincipalMismatch, fmt.Sprintf("the key is allowed for %s, not for the committer e-mail %q: commit with an e-mail the key is allowed for, or add the e-mail to its principals", strings.Join(principals, " and "), email)
	}
	return nil, verdict, detail
}

// judge checks the line's namespaces and validity options for a git
// signature made at time at.
func (s *allowedSigner) judge(at time.Time) (Verdict, string) {
	if s.hasNamespaces && !matchPatternList(gitNamespace, s.namespaces) {
		return WrongNamespace, fmt.Sprintf("the key may sign only in the namespaces %q, which do not include git", s.namespaces)
	}
	t := at.Unix()
	if !s.validAfter.IsZero() && t < s.validAfter.Unix() {
		return KeyExpired, fmt.Sprintf("the key is not yet valid at the committer time %s: its valid-after is %s", at.UTC().Format(time.RFC3339), s.validAfter.UTC().Format(time.RFC3339))
	}
	if !s.validBefore.IsZero() && t > s.validBefore.Unix() {
		return KeyExpired, fmt.Sprintf("the key has expired at the committer time %s: its valid-before is %s", at.UTC().Format(time.RFC3339), s.validBefore.UTC().Format(time.RFC3339))
	}
	return Valid, ""
}

func (p *Policy) unknownSSHKey(fingerprint string) string {
	if p.signersFile == "" {
		return fmt.Sprintf("signed with the SSH key %s, but no allowed-signers file is configured (signatures.allowed-signers)", fingerprint)
	}
	return fmt.Sprintf("the SSH key %s is not in %s: only a key listed there counts as proof of who signed", fingerprint, p.signersFile)
}
