package signature

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// BenchmarkVerify200SSHCommits verifies the 200 SSH-signed commits of a
// range (git commit -S) against an allowed-signers file of 50 keys: read
// from the object database with go-git as a range check would, and the
// verification alone. The lead's target: at most 20% of a 200-commit range
// check (about 1 s).
func BenchmarkVerify200SSHCommits(b *testing.B) {
	tl := newTool(b)
	key, pub := tl.sshKey("alice")
	var allowed strings.Builder
	for i := 0; i < 49; i++ {
		_, other := goSSHKey(b)
		fmt.Fprintf(&allowed, "dev%d@example.com %s\n", i, other)
	}
	allowed.WriteString("alice@example.com " + pub + "\n")
	policy, err := NewPolicy(Sources{AllowedSignersPath: "allowed_signers", AllowedSigners: []byte(allowed.String())})
	if err != nil {
		b.Fatal(err)
	}
	repo := tl.repo("repo")
	ids := make([]plumbing.Hash, 200)
	for i := range ids {
		ids[i] = plumbing.NewHash(tl.sshCommit(repo, key, "alice@example.com", "", fmt.Sprint("commit ", i)))
	}
	r, err := git.PlainOpen(repo)
	if err != nil {
		b.Fatal(err)
	}
	commits := make([]Commit, len(ids))
	for i, id := range ids {
		commits[i] = readCommit(b, repo, id.String())
	}
	now := time.Now()
	b.Run("read-and-verify", func(b *testing.B) {
		for b.Loop() {
			for _, id := range ids {
				c, err := r.CommitObject(id)
				if err != nil {
					b.Fatal(err)
				}
				st := policy.Verify(commitFromGoGit(b, c.PGPSignature, c.EncodeWithoutSignature, c.Committer.Email, c.Committer.When), now)
				if st.Verdict != Valid {
					b.Fatal(st)
				}
			}
		}
	})
	b.Run("verify", func(b *testing.B) {
		for b.Loop() {
			for _, c := range commits {
				if st := policy.Verify(c, now); st.Verdict != Valid {
					b.Fatal(st)
				}
			}
		}
	})
}
