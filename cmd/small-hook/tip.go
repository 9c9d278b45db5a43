package main

import (
	"fmt"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
)

// checkTip compares the tip a push replaces with the new tip when the new
// one does not contain it (a force-push, a reset, an orphan branch): the
// governed files at the new tip must continue the history they had at the
// previous tip. Only the rules that judge continuity run; every finding
// names both tips. It reports whether the branch was rewritten, and adds
// the compared paths to paths.
func checkTip(repo *gitdiff.Repo, base, head string, scope gitdiff.Scope, cfg *config.Config, paths map[string]bool) ([]rules.Finding, bool, error) {
	u, err := repo.Tip(base, head, scope)
	if err != nil || u == nil {
		return nil, false, err
	}
	previous, err := repo.Resolve(base)
	if err != nil {
		return nil, false, err
	}
	for _, ch := range u.Changes {
		paths[ch.Path] = true
	}
	checker := rules.NewChecker(rules.Options{Rules: registry.All(), Config: cfg})
	if err := checker.Check(u); err != nil {
		return nil, false, err
	}
	findings := checker.Findings()
	for i := range findings {
		findings[i].Message = fmt.Sprintf("the branch was rewritten (its new tip %s does not contain its previous tip %s); compared with the previous tip: %s",
			words.ShortID(u.Commit.Hash), words.ShortID(previous), findings[i].Message)
	}
	return findings, true, nil
}
