package attribution

import "testing"

// TestStandsAsHuman: only a change decided human, with no evidence of an
// agent at all, has a human's standing; an intended rewrite needs that
// standing and a reason.
func TestStandsAsHuman(t *testing.T) {
	cases := []struct {
		name     string
		v        Verdict
		standing bool
	}{
		{"human", Verdict{Actor: Human}, true},
		{"agent", Verdict{Actor: Agent, Evidence: "trailer Co-Authored-By: Claude <noreply@anthropic.com>"}, false},
		{"unknown", Verdict{Actor: Unknown}, false},
		{"not known yet", Verdict{Actor: Human, Pending: true}, false},
		{"signed by a human's key with an agent marker", Verdict{Actor: Human, Disputed: "trailer Co-Authored-By: Claude <noreply@anthropic.com>"}, false},
	}
	for _, c := range cases {
		if got := c.v.StandsAsHuman(); got != c.standing {
			t.Errorf("%s: StandsAsHuman() = %v", c.name, got)
		}
		withReason := c.v
		withReason.Rewrite = "typo"
		if withReason.MayRewrite() != c.standing || c.v.MayRewrite() {
			t.Errorf("%s: MayRewrite() = %v with a reason, %v without", c.name, withReason.MayRewrite(), c.v.MayRewrite())
		}
	}
}
