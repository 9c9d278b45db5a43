package push

import (
	"testing"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/rules"
)

func TestProtectedBranchDeletions(t *testing.T) {
	cfg := config.Default()
	cfg.Push.Protect = []string{"release/*"}
	off := config.Default()
	off.Rules = map[string]config.RuleSetting{"push/protected": {Severity: config.SeverityOff}}
	deletion := func(ref string, isDefault bool) changes.Unit {
		return changes.Unit{Mode: changes.ModeDeletion, Ref: ref, DefaultBranch: isDefault,
			Commit: &changes.Commit{Hash: "0123456789abcdef0123456789abcdef01234567"}}
	}
	cases := []struct {
		name string
		cfg  *config.Config
		unit changes.Unit
		want int
	}{
		{"the default branch", cfg, deletion("refs/heads/main", true), 1},
		{"a protected branch", cfg, deletion("refs/heads/release/1.0", false), 1},
		{"a topic branch", cfg, deletion("refs/heads/topic", false), 0},
		{"a tag named like a protected branch", cfg, deletion("refs/tags/release/1.0", false), 0},
		{"turned off", off, deletion("refs/heads/main", true), 0},
		{"not a deletion", cfg, changes.Unit{Mode: changes.ModeRange, Ref: "refs/heads/main", DefaultBranch: true}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rules.Check([]changes.Unit{tc.unit}, rules.Options{Rules: Rules(), Config: tc.cfg,
				Actor: func(*changes.Unit) (attribution.Verdict, error) {
					return attribution.Verdict{Actor: attribution.Human}, nil
				}})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.want {
				t.Fatalf("%d findings, want %d: %+v", len(got), tc.want, got)
			}
			if tc.want == 1 && (got[0].Path != tc.unit.Ref || got[0].Commit != tc.unit.Commit.Hash || got[0].Severity != rules.Error) {
				t.Errorf("finding %+v does not name the ref and its commit", got[0])
			}
		})
	}
}
