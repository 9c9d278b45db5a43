package push

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
)

// Each hands fn the units of a push, update by update, each update judged
// completely whatever the others are (git applies each on its own):
//
//   - the ref itself (changes.ModeRef): what the push sets it to, or its
//     deletion;
//   - every commit its new object leads to that the receiver has not
//     judged (each commit once, under the first update that brings it,
//     its unit's Ref naming that update's ref);
//   - for a branch whose new tip does not contain the tip it replaces,
//     the two tips compared (changes.ModeTip).
//
// It returns the number of commits.
//
// A rewritten branch that cfg keeps (config.Push.KeepsHistory: the
// default branch and the protected ones) keeps the previous tip's entries
// as a prefix; on another, an entry may stand between them when the plan's
// Onto holds it.
func Each(repo *gitdiff.Repo, plan *Plan, scope gitdiff.Scope, cfg config.Push, fn func(changes.Unit) error) (int, error) {
	total := 0
	judged := append([]string{}, plan.Judged...)
	for _, u := range plan.Updates {
		onto := plan.Onto
		if cfg.KeepsHistory(u.Ref, u.DefaultBranch) {
			onto = ""
		}
		n, head, err := eachOf(repo, u, judged, onto, scope, fn)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", u.Ref, err)
		}
		total += n
		if head != "" {
			judged = append(judged, head)
		}
	}
	return total, nil
}

// eachOf hands fn the units of one update, given the commits judged
// before it and the revision whose entries may stand between those of a
// rewritten branch; it returns the number of commits and the commit the
// update's new object leads to ("" for none).
func eachOf(repo *gitdiff.Repo, u Update, judged []string, onto string, scope gitdiff.Scope, fn func(changes.Unit) error) (int, string, error) {
	ref, err := repo.RefUnit(u.Ref, u.Old, u.New, u.DefaultBranch)
	if err == nil {
		err = fn(ref)
	}
	if err != nil || u.New == "" {
		return 0, "", err
	}
	head, err := repo.Peel(u.New)
	if err != nil || head == "" {
		return 0, "", err // a tree or a blob: the ref's unit judges it
	}
	excluded := judged
	if u.Previous != "" {
		excluded = append(excluded[:len(excluded):len(excluded)], u.Previous)
	}
	n, err := repo.RangeExcluding(excluded, head, scope, func(unit changes.Unit) error {
		unit.Ref = u.Ref
		return fn(unit)
	})
	if err != nil || u.Previous == "" || !strings.HasPrefix(u.Ref, "refs/heads/") {
		return n, head, err
	}
	tip, err := repo.Tip(u.Previous, head, onto, scope)
	if err != nil {
		return 0, "", fmt.Errorf("comparing %s with the previous tip %s: %w", head, u.Previous, err)
	}
	if tip != nil {
		tip.Ref, tip.DefaultBranch = u.Ref, u.DefaultBranch
		err = fn(*tip)
	}
	return n, head, err
}
