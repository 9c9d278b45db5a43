package attribution

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/signature"
)

// TestValidSignatureIsHumanEvidence: a valid signature by an allowed key
// makes a commit human whatever its message says, and the agent evidence
// it outweighs is kept for the rules to report; a signature that does not
// verify is no evidence at all.
func TestValidSignatureIsHumanEvidence(t *testing.T) {
	valid := &signature.Status{Format: signature.FormatSSH, Verdict: signature.Valid, Signer: "alice@example.com", Key: "SHA256:abc", Entry: ".github/allowed_signers:1"}
	unknown := &signature.Status{Format: signature.FormatSSH, Verdict: signature.UnknownKey, Key: "SHA256:def", Detail: "the SSH key SHA256:def is not in .github/allowed_signers"}
	alice := changes.Identity{Name: "Alice", Email: "alice@example.com"}
	cursor := changes.Identity{Name: "Cursor Agent", Email: "cursoragent@cursor.com"}
	cases := []struct {
		name         string
		sig          *signature.Status
		author       changes.Identity
		message      string
		actor        Actor
		evidence     string
		disputed     string
		contradicted string
	}{
		{"signed, no marker", valid, alice, "Refine intent\n", Human, "valid ssh signature by alice@example.com (key SHA256:abc, .github/allowed_signers:1)", "", ""},
		{"signed with a Claude co-author", valid, alice, "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n", Human, "valid ssh signature by alice@example.com", "trailer Co-Authored-By: Claude <noreply@anthropic.com>", ""},
		{"signed and marked agent", valid, alice, "Refine intent\n\nSmall-Actor: agent\n", Human, "valid ssh signature", "trailer Small-Actor: agent", ""},
		{"signed, agent author claiming human", valid, cursor, "Refine intent\n\nSmall-Actor: human\n", Human, "valid ssh signature", "author Cursor Agent <cursoragent@cursor.com>", ""},
		{"unknown key, no marker", unknown, alice, "Refine intent\n", Human, "no agent marker", "", ""},
		{"unknown key, agent claiming human", unknown, cursor, "Refine intent\n\nSmall-Actor: human\n", Agent, "author Cursor Agent", "", "trailer Small-Actor: human"},
		{"no policy", nil, alice, "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n", Agent, "trailer Co-Authored-By", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v, err := Decide(Input{Message: tc.message, HasMessage: true, Author: tc.author, Committer: alice, Signature: tc.sig}, config.Default().Attribution)
			if err != nil {
				t.Fatal(err)
			}
			if v.Actor != tc.actor || !strings.Contains(v.Evidence, tc.evidence) || v.Disputed != tc.disputed || v.Contradicted != tc.contradicted {
				t.Errorf("got actor %s, evidence %q, disputed %q, contradicted %q", v.Actor, v.Evidence, v.Disputed, v.Contradicted)
			}
			if v.Signature != tc.sig {
				t.Errorf("the verdict does not carry the signature status")
			}
		})
	}
}

// TestSignatureDoesNotExcuseABadActorTrailer: a Small-Actor value that is
// neither agent nor human is an error on a signed commit too.
func TestSignatureDoesNotExcuseABadActorTrailer(t *testing.T) {
	valid := &signature.Status{Format: signature.FormatSSH, Verdict: signature.Valid, Signer: "a@example.com"}
	if _, err := Decide(Input{Message: "x\n\nSmall-Actor: robot\n", HasMessage: true, Signature: valid}, config.Default().Attribution); err == nil {
		t.Error("a signed commit with Small-Actor: robot was attributed")
	}
}

func TestReadinessIsCarried(t *testing.T) {
	r := &signature.Readiness{Advice: "commits are not signed"}
	v, err := Decide(Input{Readiness: r}, config.Default().Attribution)
	if err != nil || v.Readiness != r || !v.Pending {
		t.Errorf("%+v %v", v, err)
	}
}
