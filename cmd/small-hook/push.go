package main

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
)

// zeroID is the object id git hands hooks for "no object": the old side of
// a ref a push creates, the new side of one it deletes.
const zeroID = "0000000000000000000000000000000000000000"

// pushPlan is what the pre-push and pre-receive hooks judge: the refs a
// push updates on the receiving side, against what that side already has.
type pushPlan struct {
	updates []refUpdate
	// known are the commits the receiver already has (its refs before the
	// push; for the pre-push hook, the remote-tracking refs): a push adds
	// the commits that none of them reaches, and those are judged.
	known []string
	// pusher is the account the server authenticated (pre-receive), and
	// pusherVar the variable that named it; "" on the client.
	pusher, pusherVar string
}

// refUpdate is one ref a push changes.
type refUpdate struct {
	// ref is the full ref name on the receiving side.
	ref string
	// old and new are the object ids before and after the push: old is ""
	// when the push creates the ref, new is "" when it deletes it.
	old, new string
	// previous is the tip the update replaces, when it is known: old, or
	// for a branch created again the remote-tracking ref of the branch the
	// remote deleted. When new does not contain it, the two tips are
	// compared.
	previous string
	// defaultBranch says the ref is the receiver's default branch.
	defaultBranch bool
}

// eachPush hands fn the units of a push: every commit a new tip brings
// that the receiver does not have yet (each commit once, under the first
// ref that brings it, its unit's Ref naming that ref), and a deletion unit
// for every ref the push deletes. It returns the number of commits.
func eachPush(repo *gitdiff.Repo, plan *pushPlan, scope gitdiff.Scope, fn func(changes.Unit) error) (int, error) {
	total := 0
	judged := append([]string{}, plan.known...)
	for _, u := range plan.updates {
		if u.new == "" {
			unit, err := repo.Deletion(u.ref, u.old, u.defaultBranch)
			if err == nil {
				err = fn(unit)
			}
			if err != nil {
				return 0, fmt.Errorf("%s: %w", u.ref, err)
			}
			continue
		}
		head, err := repo.Peel(u.new)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", u.ref, err)
		}
		if head == "" {
			continue // a tag of a tree or a blob: no commit, no history
		}
		excluded := judged
		if u.previous != "" {
			excluded = append(excluded[:len(excluded):len(excluded)], u.previous)
		}
		n, err := repo.RangeExcluding(excluded, head, scope, func(unit changes.Unit) error {
			unit.Ref = u.ref
			return fn(unit)
		})
		if err != nil {
			return 0, fmt.Errorf("%s: %w", u.ref, err)
		}
		total += n
		judged = append(judged, head)
	}
	return total, nil
}

// pushTips compares, for every branch the push moves to a tip that does
// not contain the one it replaces, the two tips (see checkTip); each
// finding's message starts with the branch. It reports whether any branch
// was rewritten.
func pushTips(repo *gitdiff.Repo, plan *pushPlan, scope gitdiff.Scope, cfg *config.Config, paths map[string]bool) ([]rules.Finding, bool, error) {
	var out []rules.Finding
	rewritten := false
	for _, u := range plan.updates {
		if u.previous == "" || u.new == "" || !strings.HasPrefix(u.ref, "refs/heads/") {
			continue
		}
		head, err := repo.Peel(u.new)
		if err != nil || head == "" {
			return nil, false, err
		}
		found, moved, err := checkTip(repo, u.previous, head, scope, cfg, paths)
		if err != nil {
			return nil, false, fmt.Errorf("%s: comparing %s with the previous tip %s: %w", u.ref, head, u.previous, err)
		}
		rewritten = rewritten || moved
		for _, f := range found {
			f.Message = u.ref + ": " + f.Message
			out = append(out, f)
		}
	}
	return out, rewritten, nil
}

// describe names what a push check covered, for the report: each ref with
// its old and new tips.
func (p *pushPlan) describe() string {
	var parts []string
	for _, u := range p.updates {
		switch {
		case u.new == "":
			parts = append(parts, u.ref+" (deleted)")
		case u.old == "" && u.previous != "":
			parts = append(parts, fmt.Sprintf("%s (new, replacing %s) %s", u.ref, words.ShortID(u.previous), words.ShortID(u.new)))
		case u.old == "":
			parts = append(parts, fmt.Sprintf("%s (new) %s", u.ref, words.ShortID(u.new)))
		default:
			parts = append(parts, fmt.Sprintf("%s %s..%s", u.ref, words.ShortID(u.old), words.ShortID(u.new)))
		}
	}
	s := strings.Join(parts, ", ")
	if p.pusher != "" {
		s += fmt.Sprintf("; pushed by %s (%s)", p.pusher, p.pusherVar)
	}
	return s
}

// withRefs prefixes the message of every finding on a commit a push
// brought with the ref that brought it.
func withRefs(findings []rules.Finding, refOf map[string]string) {
	for i := range findings {
		if ref := refOf[findings[i].Commit]; ref != "" {
			findings[i].Message = ref + ": " + findings[i].Message
		}
	}
}
