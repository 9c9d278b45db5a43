package gitdiff

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gittest"
	"github.com/small-hook/small-hook/internal/signature"
)

// sshSigner is an ed25519 key made by ssh-keygen for signing test commits.
type sshSigner struct {
	t         *testing.T
	key, pub  string
	allowedTo string // an allowed-signers file for gittest.Email
}

func newSSHSigner(t *testing.T) *sshSigner {
	t.Helper()
	if _, err := exec.LookPath("ssh-keygen"); err != nil {
		t.Fatalf("ssh-keygen is needed to sign test commits: %v", err)
	}
	dir := t.TempDir()
	key := filepath.Join(dir, "id")
	run(t, dir, nil, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "test", "-f", key)
	pub, err := os.ReadFile(key + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	allowed := filepath.Join(dir, "allowed_signers")
	if err := os.WriteFile(allowed, []byte(gittest.Email+" "+string(pub)), 0o644); err != nil {
		t.Fatal(err)
	}
	return &sshSigner{t: t, key: key, pub: strings.TrimSpace(string(pub)), allowedTo: allowed}
}

// sign returns ssh-keygen's git signature of data.
func (s *sshSigner) sign(data []byte) string {
	s.t.Helper()
	return run(s.t, filepath.Dir(s.key), data, "ssh-keygen", "-q", "-Y", "sign", "-n", "git", "-f", s.key)
}

// verifies reports whether ssh-keygen accepts sig over data for
// gittest.Email.
func (s *sshSigner) verifies(sig string, data []byte) bool {
	s.t.Helper()
	sigFile := filepath.Join(s.t.TempDir(), "sig")
	if err := os.WriteFile(sigFile, []byte(sig), 0o644); err != nil {
		s.t.Fatal(err)
	}
	cmd := exec.Command("ssh-keygen", "-Y", "verify", "-n", "git", "-f", s.allowedTo, "-I", gittest.Email, "-s", sigFile)
	cmd.Stdin = bytes.NewReader(data)
	return cmd.Run() == nil
}

// run runs a command that must succeed and returns its stdout.
func run(t *testing.T, dir string, stdin []byte, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, stderr.String())
	}
	return out.String()
}

// rangeCommits returns the commits of base..head as Range describes them.
func rangeCommits(t *testing.T, g *Repo, base, head string) []*changes.Commit {
	t.Helper()
	var out []*changes.Commit
	if _, err := g.Range(base, head, Scope{}, func(u changes.Unit) error {
		out = append(out, u.Commit)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCommitsCarryWhatTheirSignatureSigns: a commit signed by git commit -S
// and a hand-made commit with a header go-git does not model, signed over
// exactly its bytes, both come out of Range with the signature and the
// payload ssh-keygen verifies; an unsigned commit's payload is the whole
// object.
func TestCommitsCarryWhatTheirSignatureSigns(t *testing.T) {
	s := newSSHSigner(t)
	r := newRepo(t)
	base := r.Commit("base")
	r.Write(".small/constraints.small.yml", "a1")
	r.Git("add", "-A")
	r.Git("-c", "gpg.format=ssh", "-c", "user.signingkey="+s.key, "commit", "-q", "-S", "-m", "signed by git")
	signed := r.Git("rev-parse", "HEAD")

	tree := r.Git("rev-parse", "HEAD^{tree}")
	payload := "tree " + tree + "\nparent " + signed + "\nauthor T <t@example.com> 1700000100 +0000\ncommitter T <t@example.com> 1700000100 +0000\nx-unmodelled-header some value\n\nhand-made\n"
	sig := s.sign([]byte(payload))
	head, rest, _ := strings.Cut(payload, "\n\n")
	raw := head + "\ngpgsig " + strings.ReplaceAll(strings.TrimRight(sig, "\n"), "\n", "\n ") + "\n\n" + rest
	handMade := r.GitInput(raw, "hash-object", "-t", "commit", "-w", "--stdin")
	r.Git("update-ref", "refs/heads/main", handMade)
	r.Write("src/x.go", "x")
	unsigned := r.Commit("unsigned")

	commits := rangeCommits(t, r.open(), base, "HEAD")
	if len(commits) != 3 || commits[0].Hash != signed || commits[1].Hash != handMade || commits[2].Hash != unsigned {
		t.Fatalf("range: %d commits", len(commits))
	}
	for _, c := range commits[:2] {
		data, err := c.Payload()
		if err != nil {
			t.Fatal(err)
		}
		if c.Signature == "" || !s.verifies(c.Signature, data) {
			t.Errorf("commit %s: ssh-keygen does not verify its signature over its payload:\n%s", c.Hash, data)
		}
		if bytes.Contains(data, []byte("gpgsig")) || bytes.Contains(data, []byte("SSH SIGNATURE")) {
			t.Errorf("commit %s: the payload keeps the signature:\n%s", c.Hash, data)
		}
		if c.CommitterTime.IsZero() {
			t.Errorf("commit %s has no committer time", c.Hash)
		}
	}
	if got, _ := commits[1].Payload(); string(got) != payload {
		t.Errorf("the hand-made commit's payload is not what was signed:\n%q\nwant\n%q", got, payload)
	}
	policy, err := signature.NewPolicy(signature.Sources{AllowedSignersPath: "allowed_signers", AllowedSigners: []byte(gittest.Email + " " + s.pub + "\n")})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := commits[0].Payload()
	st := policy.Verify(signature.Commit{Signature: []byte(commits[0].Signature), Payload: data, CommitterEmail: commits[0].Committer.Email, CommitterTime: commits[0].CommitterTime}, commits[0].CommitterTime)
	if st.Verdict != signature.Valid {
		t.Errorf("the signed commit does not verify: %s", st)
	}
	data, _ = commits[2].Payload()
	if commits[2].Signature != "" || string(data) != r.Git("cat-file", "commit", unsigned)+"\n" {
		t.Errorf("the unsigned commit: signature %q, payload\n%s", commits[2].Signature, data)
	}
}

func TestWithoutSignatureKeepsEverythingElse(t *testing.T) {
	raw := "tree 1\nparent 2\ngpgsig -----BEGIN SSH SIGNATURE-----\n abc\n -----END SSH SIGNATURE-----\nmergetag object 3\n type commit\n\n message\n gpgsig not a header\n"
	want := "tree 1\nparent 2\nmergetag object 3\n type commit\n\n message\n gpgsig not a header\n"
	if got := string(withoutSignature([]byte(raw))); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	raw = "tree 1\ngpgsig-sha256 x\n y\ngpgsig z\n\nmsg"
	if got := string(withoutSignature([]byte(raw))); got != "tree 1\n\nmsg" {
		t.Errorf("got %q", got)
	}
}

// TestPolicyFilesAreInScope: the configuration and key files named in the
// scope reach the changes in every mode, beside the governed files.
func TestPolicyFilesAreInScope(t *testing.T) {
	r := newRepo(t)
	base := r.Commit("base")
	r.Write(".small-hook.yml", "signatures: {}\n")
	r.Write(".github/allowed_signers", "x\n")
	r.Write(".github/other", "y\n")
	r.Write(".small/constraints.small.yml", "a")
	r.Git("add", "-A")
	scope := Scope{Policy: []string{".small-hook.yml", ".github/allowed_signers"}}
	want := ".github/allowed_signers:->x .small-hook.yml:->signatures: {} .small/constraints.small.yml:->a"
	g := r.open()
	u, err := g.Staged(scope)
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(u.Changes); got != want {
		t.Errorf("staged: %s", got)
	}
	r.Git("commit", "-q", "-m", "policy")
	var got string
	if _, err := r.open().Range(base, "HEAD", scope, func(u changes.Unit) error {
		got = summary(u.Changes)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Errorf("range: %s", got)
	}
	tree, err := r.open().Tree("HEAD", scope)
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(tree.Changes); got != want {
		t.Errorf("tree: %s", got)
	}
	if _, err := r.open().Range(base, "HEAD", Scope{}, func(u changes.Unit) error {
		got = summary(u.Changes)
		return nil
	}); err != nil || got != ".small/constraints.small.yml:->a" {
		t.Errorf("without policy files in the scope: %v %s", err, got)
	}
}
