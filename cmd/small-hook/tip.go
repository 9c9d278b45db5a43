package main

import (
	"fmt"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
)

// tipCheck judges the comparisons of a tip a push replaces with a new tip
// that does not contain it (changes.ModeTip: a force-push, a reset, an
// orphan branch): the governed files at the new tip must continue the
// history they had at the previous tip. Only the rules that judge
// continuity run, with the new tip's commit as the actor (a human's
// intended rewrite of a branch other than the default and the protected
// ones is a warning); every finding names both tips, and the branch when
// the push names one.
type tipCheck struct {
	cfg   *config.Config
	actor func(*changes.Unit) (attribution.Verdict, error)
	// found are the findings so far; rewritten says a tip was compared.
	found     []rules.Finding
	rewritten bool
}

// check judges one comparison.
func (t *tipCheck) check(u *changes.Unit) error {
	checker := rules.NewChecker(rules.Options{Rules: registry.All(), Config: t.cfg, Actor: t.actor})
	if err := checker.Check(u); err != nil {
		return err
	}
	t.rewritten = true
	for _, f := range checker.Findings() {
		f.Message = fmt.Sprintf("the branch was rewritten (its new tip %s does not contain its previous tip %s); compared with the previous tip: %s",
			words.ShortID(u.Commit.Hash), words.ShortID(u.Previous), f.Message)
		if u.Ref != "" {
			f.Message = u.Ref + ": " + f.Message
		}
		t.found = append(t.found, f)
	}
	return nil
}

// previousTip compares the head of a --previous range (or of a CI push)
// with the tip it replaces, when it does not contain it.
func previousTip(repo *gitdiff.Repo, tgt target, scope gitdiff.Scope, tips *tipCheck, files *changedFiles) error {
	u, err := repo.Tip(tgt.base, tgt.head, "", scope)
	if err != nil {
		return fmt.Errorf("comparing %s with the previous tip %s: %w", tgt.head, tgt.base, err)
	}
	if u == nil {
		return nil
	}
	files.add(u)
	return tips.check(u)
}
