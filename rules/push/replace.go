package push

import (
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

func replaceRule() *rules.Rule {
	return &rules.Rule{
		ID:       "push/replace",
		Severity: rules.Error,
		Doc: `A push does not replace objects (refs/replace/*)
A ref refs/replace/<id> makes git show another object wherever a commit or a tree names <id>: git show main:.small/progress.small.yml, git log -p, git archive and every reader that honours replacements on the server then show the replacement, though no commit changed and no check judged it (small-hook reads the objects themselves, never their replacements). The pre-receive and pre-push hooks refuse a push that creates or moves such a ref, unless push.replace-refs: allow in .small-hook.yml (on the default branch) lets them. Deleting one is allowed: it returns every reader to what the objects hold. Notes (refs/notes/*) are not replacements: git log shows a note below a commit's message, never in place of content, so they are pushed and judged like any other ref. Fix: leave the ref out of the push; a repository that uses replacements on purpose sets push.replace-refs: allow in a human's commit.`,
		SeesExcluded: true,
		Run: func(pass *rules.Pass) error {
			u := pass.Unit
			if u.Mode != changes.ModeRef || u.Target == nil || !strings.HasPrefix(u.Ref, "refs/replace/") || pass.Config.Push.ReplaceRefs == "allow" {
				return nil
			}
			pass.Report(u.Ref, 0, "the push sets %s, a replacement: git would show %s in place of object %s to every reader that honours replacements, though no commit changed", u.Ref, article(u.Target), strings.TrimPrefix(u.Ref, "refs/replace/")).
				Hint("leave the ref out of the push (git push REMOTE :%s deletes one that is there); if the repository uses replacements on purpose, a human sets push.replace-refs: allow in .small-hook.yml on the default branch", u.Ref)
			return nil
		},
	}
}
