package push

import (
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

func notACommitRule() *rules.Rule {
	return &rules.Rule{
		ID:       "push/not-a-commit",
		Severity: rules.Error,
		Doc: `A branch is set to a commit, a tag to a commit or an annotated tag of one
git applies each ref update of a push on its own: it refuses a branch (refs/heads/*) set to anything but a commit only after the pre-receive hook accepted the push, and then applies the other updates. A push that pairs such an update with others must not slip through because one of its updates brings no history to judge, so the pre-receive and pre-push hooks refuse a branch set to an annotated tag, a tree or a blob, and a tag (refs/tags/*) that leads to no commit (a lightweight or annotated tag of a tree or a blob), reported under the ref's name. The other updates of the push are judged in full all the same. Fix: push a commit to the branch (git push REMOTE COMMIT:refs/heads/NAME), a tag of a commit to the tag, or leave the ref out of the push.`,
		SeesExcluded: true,
		Run: func(pass *rules.Pass) error {
			u := pass.Unit
			if u.Mode != changes.ModeRef || u.Target == nil {
				return nil
			}
			t := u.Target
			switch {
			case strings.HasPrefix(u.Ref, "refs/heads/") && t.Type != "commit":
				pass.Report(u.Ref, 0, "the push sets the branch %s to %s, not to a commit: git stores only commits in branches and refuses this update itself, but only after this hook judged the push and while it applies the others", u.Ref, article(t)).
					Hint("push a commit to the branch (git push REMOTE COMMIT:%s), or leave it out of the push", u.Ref)
			case strings.HasPrefix(u.Ref, "refs/tags/") && t.Peeled != "commit":
				pass.Report(u.Ref, 0, "the push sets the tag %s to %s, which leads to no commit: a tag names a commit, directly or through an annotated tag", u.Ref, article(t)).
					Hint("tag a commit (git tag NAME COMMIT, git tag -a NAME COMMIT), or leave the tag out of the push")
			}
			return nil
		},
	}
}

// article names what a ref is set to: "a tree", "an annotated tag of a
// blob".
func article(t *changes.Target) string {
	if t.Type == "tag" {
		return "an annotated tag of a " + t.Peeled
	}
	return "a " + t.Type
}
