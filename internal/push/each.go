package push

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
)

// Each hands fn the units of a push: every commit a new tip brings that
// the receiver does not have yet (each commit once, under the first ref
// that brings it, its unit's Ref naming that ref), and a deletion unit for
// every ref the push deletes. It returns the number of commits.
func Each(repo *gitdiff.Repo, plan *Plan, scope gitdiff.Scope, fn func(changes.Unit) error) (int, error) {
	total := 0
	judged := append([]string{}, plan.Judged...)
	for _, u := range plan.Updates {
		if u.New == "" {
			unit, err := repo.Deletion(u.Ref, u.Old, u.DefaultBranch)
			if err == nil {
				err = fn(unit)
			}
			if err != nil {
				return 0, fmt.Errorf("%s: %w", u.Ref, err)
			}
			continue
		}
		head, err := repo.Peel(u.New)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", u.Ref, err)
		}
		if head == "" {
			continue // a tag of a tree or a blob: no commit, no history
		}
		excluded := judged
		if u.Previous != "" {
			excluded = append(excluded[:len(excluded):len(excluded)], u.Previous)
		}
		n, err := repo.RangeExcluding(excluded, head, scope, func(unit changes.Unit) error {
			unit.Ref = u.Ref
			return fn(unit)
		})
		if err != nil {
			return 0, fmt.Errorf("%s: %w", u.Ref, err)
		}
		total += n
		judged = append(judged, head)
	}
	return total, nil
}

// Tip is a branch a push moves from a previous tip to a new one.
type Tip struct {
	Ref, Previous, Head string
}

// Tips lists the branches the push moves, with the tip each replaces and
// its new tip (a commit), for comparing the two (when the new tip does not
// contain the previous one, the branch was rewritten).
func Tips(repo *gitdiff.Repo, plan *Plan) ([]Tip, error) {
	var out []Tip
	for _, u := range plan.Updates {
		if u.Previous == "" || u.New == "" || !strings.HasPrefix(u.Ref, "refs/heads/") {
			continue
		}
		head, err := repo.Peel(u.New)
		if err != nil || head == "" {
			return nil, err
		}
		out = append(out, Tip{Ref: u.Ref, Previous: u.Previous, Head: head})
	}
	return out, nil
}
