package signature

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/small-hook/small-hook/internal/gittest"
)

// TestVerifySSHAgainstGit signs real commits with git commit -S
// (gpg.format=ssh), reads them back with go-git and checks every verdict
// against git verify-commit and against ssh-keygen -Y verify with the
// committer e-mail as the principal.
func TestVerifySSHAgainstGit(t *testing.T) {
	tl := newTool(t)
	alice, alicePub := tl.sshKey("alice")
	bob, _ := tl.sshKey("bob")
	carol, carolPub := tl.sshKey("carol")
	dave, davePub := tl.sshKey("dave")
	erin, erinPub := tl.sshKey("erin")
	frank, frankPub := tl.sshKey("frank")
	team, teamPub := tl.sshKey("team")
	allowedText := strings.Join([]string{
		"# who may sign",
		"alice@example.com " + alicePub,
		"carol@example.com " + carolPub,
		`dave@example.com valid-before="20200101Z" ` + davePub,
		`erin@example.com valid-after="20990101Z" ` + erinPub,
		`frank@example.com namespaces="file" ` + frankPub,
		`*@team.example,!mallory@team.example ` + teamPub,
		"",
	}, "\n")
	allowed := tl.write("allowed_signers", allowedText)
	policy, err := NewPolicy(Sources{AllowedSignersPath: ".github/allowed_signers", AllowedSigners: []byte(allowedText)})
	if err != nil {
		t.Fatal(err)
	}
	repo := tl.repo("repo")

	valid := tl.sshCommit(repo, alice, "alice@example.com", "", "valid")
	raw := tl.rawCommit(repo, valid)
	head, _, _ := strings.Cut(raw, "\ngpgsig ")
	_, msg, _ := strings.Cut(raw, "\n\n")
	unsigned := head + "\n\n" + msg
	fileSig := tl.must(tl.dir, nil, []byte(unsigned), "ssh-keygen", "-Y", "sign", "-n", "file", "-f", alice)
	if !strings.HasPrefix(fileSig, sshArmor) {
		t.Fatalf("ssh-keygen -Y sign wrote %q", fileSig)
	}

	cases := []struct {
		name   string
		commit string
		want   Verdict
		// gitPasses is what git verify-commit says: it passes a principal
		// mismatch, as it never compares the principal with the committer.
		gitPasses bool
		detail    string
	}{
		{"valid", valid, Valid, true, ""},
		{"unsigned", tl.commit(repo, false, "alice@example.com", "", "unsigned", nil), Unsigned, false, "not signed"},
		{"key not in the file", tl.sshCommit(repo, bob, "alice@example.com", "", "bob"), UnknownKey, false, "is not in .github/allowed_signers"},
		{"principal not the committer", tl.sshCommit(repo, carol, "alice@example.com", "", "carol as alice"), PrincipalMismatch, true, `"carol@example.com" (.github/allowed_signers:3)`},
		{"signed after valid-before", tl.sshCommit(repo, dave, "dave@example.com", "", "dave late"), KeyExpired, false, "has expired"},
		{"committed before valid-before", tl.sshCommit(repo, dave, "dave@example.com", "2019-06-01T12:00:00Z", "dave in time"), Valid, true, ""},
		{"signed before valid-after", tl.sshCommit(repo, erin, "erin@example.com", "", "erin early"), KeyExpired, false, "not yet valid"},
		{"namespaces option excludes git", tl.sshCommit(repo, frank, "frank@example.com", "", "frank"), WrongNamespace, false, `"file"`},
		{"signature namespace is not git", tl.writeCommit(repo, withSignature(unsigned, fileSig)), WrongNamespace, false, `namespace "file"`},
		{"message changed after signing", tl.writeCommit(repo, strings.Replace(raw, "\n\nvalid\n", "\n\nvalid, and more\n", 1)), BadSignature, false, "does not match the commit"},
		{"committer changed after signing", tl.writeCommit(repo, strings.Replace(raw, "committer "+gittest.Name+" <alice@example.com>", "committer "+gittest.Name+" <alice@example.net>", 1)), BadSignature, false, "does not match"},
		{"signature moved to another commit", tl.writeCommit(repo, withSignature(strings.Replace(unsigned, "\n\nvalid\n", "\n\nother\n", 1), tl.rawSignature(repo, valid))), BadSignature, false, "does not match"},
		{"pattern principal", tl.sshCommit(repo, team, "ci@team.example", "", "team"), Valid, true, ""},
		{"negated principal", tl.sshCommit(repo, team, "mallory@team.example", "", "mallory"), PrincipalMismatch, true, "not for the committer e-mail"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := readCommit(t, repo, tc.commit)
			st := policy.Verify(c, time.Now())
			if st.Verdict != tc.want || !strings.Contains(st.Detail, tc.detail) {
				t.Fatalf("Verify = %v (%s), want %v with %q", st.Verdict, st.Detail, tc.want, tc.detail)
			}
			g := tl.gitVerify(repo, tc.commit, nil, "gpg.ssh.allowedSignersFile="+allowed)
			if g.ok != tc.gitPasses {
				t.Errorf("git verify-commit passes: %v, want %v (%%G? %s)", g.ok, tc.gitPasses, g.status)
			}
			if tc.want == PrincipalMismatch && g.signer == c.CommitterEmail {
				t.Errorf("git names the committer %q as the signer of a principal mismatch", g.signer)
			}
			if tc.want == Unsigned {
				if st.Format != FormatNone {
					t.Errorf("format %s", st.Format)
				}
				return
			}
			if st.Format != FormatSSH || !strings.HasPrefix(st.Key, "SHA256:") {
				t.Errorf("format %s, key %q", st.Format, st.Key)
			}
			if keygen := tl.sshKeygenVerify(allowed, c); keygen != (tc.want == Valid) {
				t.Errorf("ssh-keygen -Y verify -I %s passes: %v, Verify says %v", c.CommitterEmail, keygen, st.Verdict)
			}
			if tc.want == Valid {
				if st.Signer != c.CommitterEmail || !strings.HasPrefix(st.Entry, ".github/allowed_signers:") || st.Detail != "" {
					t.Errorf("valid status %+v", st)
				}
			} else if st.Signer != "" || st.Entry != "" {
				t.Errorf("a %v status names a signer: %+v", st.Verdict, st)
			}
		})
	}
}

// rawSignature returns a commit's gpgsig header value.
func (tl *tool) rawSignature(repo, id string) string {
	tl.t.Helper()
	raw := tl.rawCommit(repo, id)
	_, rest, ok := strings.Cut(raw, "\ngpgsig ")
	if !ok {
		tl.t.Fatalf("commit %s is not signed", id)
	}
	var lines []string
	for i, line := range strings.Split(rest, "\n") {
		if i > 0 && !strings.HasPrefix(line, " ") {
			break
		}
		lines = append(lines, strings.TrimPrefix(line, " "))
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestVerifySSHCommitterTimeAtEpoch: git lets ssh-keygen judge a commit
// dated at the epoch at the current time; so does Verify, with now.
func TestVerifySSHCommitterTimeAtEpoch(t *testing.T) {
	tl := newTool(t)
	key, pub := tl.sshKey("alice")
	allowedText := `alice@example.com valid-before="20300101Z" ` + pub + "\n"
	allowed := tl.write("allowed_signers", allowedText)
	policy, err := NewPolicy(Sources{AllowedSignersPath: "allowed_signers", AllowedSigners: []byte(allowedText)})
	if err != nil {
		t.Fatal(err)
	}
	repo := tl.repo("repo")
	id := tl.sshCommit(repo, key, "alice@example.com", "@0 +0000", "at the epoch")
	c := readCommit(t, repo, id)
	if c.CommitterTime.Unix() != 0 {
		t.Fatalf("committer time %v", c.CommitterTime)
	}
	g := tl.gitVerify(repo, id, nil, "gpg.ssh.allowedSignersFile="+allowed)
	for _, tc := range []struct {
		now  time.Time
		want Verdict
	}{
		{time.Now(), Valid},
		{time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC), KeyExpired},
	} {
		if st := policy.Verify(c, tc.now); st.Verdict != tc.want {
			t.Errorf("now %v: %v (%s), want %v", tc.now, st.Verdict, st.Detail, tc.want)
		}
	}
	if !g.ok {
		t.Errorf("git verify-commit fails (%s): the test's premise is wrong", g.status)
	}
}

// TestVerifySSHKeyOnSeveralLines: a key listed on several lines is allowed
// when any line allows it, and otherwise the first line that names the
// committer says why not.
func TestVerifySSHKeyOnSeveralLines(t *testing.T) {
	tl := newTool(t)
	key, pub := tl.sshKey("alice")
	repo := tl.repo("repo")
	id := tl.sshCommit(repo, key, "alice@example.com", "2024-06-01T00:00:00Z", "one")
	c := readCommit(t, repo, id)
	cases := []struct {
		lines []string
		want  Verdict
		entry string
	}{
		{[]string{"bob@example.com " + pub, "alice@example.com " + pub}, Valid, "f:2"},
		{[]string{`alice@example.com namespaces="file" ` + pub, `alice@example.com valid-after="20240101Z" ` + pub}, Valid, "f:2"},
		{[]string{`alice@example.com namespaces="file" ` + pub, `alice@example.com valid-before="20240101Z" ` + pub}, WrongNamespace, ""},
		{[]string{`alice@example.com valid-before="20240101Z" ` + pub, `alice@example.com namespaces="file" ` + pub}, KeyExpired, ""},
		{[]string{"bob@example.com " + pub, "carol@example.com " + pub}, PrincipalMismatch, ""},
		{[]string{`alice@example.com namespaces="git,file" ` + pub}, Valid, "f:1"},
		{[]string{`alice@example.com namespaces="*,!git" ` + pub}, WrongNamespace, ""},
		{[]string{`alice@example.com namespaces="" ` + pub}, WrongNamespace, ""},
	}
	for i, tc := range cases {
		text := strings.Join(tc.lines, "\n") + "\n"
		allowed := tl.write(fmt.Sprintf("allowed%d", i), text)
		policy, err := NewPolicy(Sources{AllowedSignersPath: "f", AllowedSigners: []byte(text)})
		if err != nil {
			t.Fatal(err)
		}
		st := policy.Verify(c, time.Now())
		if st.Verdict != tc.want || st.Entry != tc.entry {
			t.Errorf("%q: %v at %q (%s), want %v at %q", tc.lines, st.Verdict, st.Entry, st.Detail, tc.want, tc.entry)
		}
		if keygen := tl.sshKeygenVerify(allowed, c); keygen != (tc.want == Valid) {
			t.Errorf("%q: ssh-keygen -Y verify passes: %v", tc.lines, keygen)
		}
	}
}
