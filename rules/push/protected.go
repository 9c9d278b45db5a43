package push

import (
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

func protectedRule() *rules.Rule {
	return &rules.Rule{
		ID:       "push/protected",
		Severity: rules.Error,
		Doc: `A push does not delete the default branch or a protected branch
A push that deletes a branch, followed by a push that creates it again, looks like a new branch to every later check: the entries the old branch held could be dropped without a force-push ever being seen. The pre-receive hook (and the pre-push hook, for the remote's default branch it knows) refuses a deletion of the receiving repository's default branch and of every branch that push.protect in .small-hook.yml names (globs of branch names: main, release/*), reported under the ref's name. To retire such a branch, a human removes it from push.protect first (on the default branch); the default branch is changed on the server (git symbolic-ref HEAD, or the hosting service's settings).`,
		SeesExcluded: true,
		Run: func(pass *rules.Pass) error {
			u := pass.Unit
			if u.Mode != changes.ModeRef || u.Target != nil {
				return nil
			}
			switch {
			case u.DefaultBranch:
				pass.Report(u.Ref, 0, "the push deletes %s, the default branch: its history is governed, and a branch deleted and pushed again would start over without being compared with the tip it had; keep the branch, or change the default branch on the server first", u.Ref)
			case pass.Config.Push.Protects(u.Ref):
				pass.Report(u.Ref, 0, "the push deletes %s, which push.protect in .small-hook.yml protects: a branch deleted and pushed again would start over without being compared with the tip it had; keep the branch, or have a human remove it from push.protect first", u.Ref)
			}
			return nil
		},
	}
}
