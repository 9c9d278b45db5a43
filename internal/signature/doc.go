// Package signature proves who signed a commit. Every other attribution
// signal (trailers, author names, e-mails) is self-declared; a signature
// made with a key an agent does not hold is the one it cannot fabricate.
//
// The package is pure: it receives bytes (key files, a commit's signature
// and signed payload, git's settings) and never opens a repository.
//
// A Policy holds the keys allowed to sign: an allowed-signers file in git's
// gpg.ssh.allowedSignersFile format (SSH keys, read exactly as ssh-keygen
// -Y verify reads it, except that a malformed line is an error rather than
// skipped, that cert-authority lines are refused (SSH certificates are not
// supported) and that DSA keys, which OpenSSH 9.8 dropped, are refused), and
// a file of armored OpenPGP public keys. Policy.Verify
// judges one commit as `git verify-commit` does, and in addition requires
// the key to be allowed for the committer's e-mail: git's own SSH
// verification only names the principal of the key, so without this check
// any allowed key could sign for anyone. Policy.Readiness tells the
// pre-commit and commit-msg hooks, which run before a signature exists,
// whether git's settings will produce an accepted signature.
//
// SSHSIG signatures are parsed and verified by github.com/hiddeco/sshsig
// (Apache-2.0): a small, maintained implementation of OpenSSH's
// PROTOCOL.sshsig on golang.org/x/crypto/ssh, which checks the namespace
// and rejects the SHA-1 RSA signature algorithm as ssh-keygen does, so this
// package writes no cryptography of its own. OpenPGP signatures and keys
// are read and verified by github.com/ProtonMail/go-crypto/openpgp, which
// go-git already depends on.
//
// Times are judged as git judges them. An SSH key's valid-after and
// valid-before are compared with the committer time (git passes it to
// ssh-keygen as -Overify-time); OpenPGP key and signature expiry and
// revocation are judged at the time of verification, as gpg does (a key
// that has expired since makes `git verify-commit` fail, and so a Verify).
package signature
