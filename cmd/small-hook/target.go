package main

import (
	"fmt"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/cienv"
	"github.com/small-hook/small-hook/internal/push"
)

// target is what a check looks at, once the mode is settled.
type target struct {
	mode changes.Mode
	// base and head bound a range: the commits reachable from head and not
	// from base; an empty base is the whole history of head.
	base, head string
	// previous says base is the tip head replaces on the same branch (a
	// push): when head does not contain it, the two tips are compared.
	previous bool
	rev      string // tree mode: "" is the index
	// index, in staged mode, adds every governed file of the index the
	// staged change does not touch, whole (pre-commit's push stage run
	// without a push).
	index bool
	// label says how the range was found, for the report ("--base",
	// "GitHub push"); flag names the option or CI source in errors.
	label, flag string
	// policyRev, when set, is the commit the policy files are read from
	// instead of the one trustedRev picks for the mode, and policyFrom
	// says where it came from (the server's default branch for the
	// pre-receive hook). noPolicy says there is nothing trusted to read
	// them from (a push to an empty repository): the built-in defaults
	// apply.
	policyRev, policyFrom string
	noPolicy              bool
	// push is set for the pre-push and pre-receive hooks: the refs a push
	// updates, judged instead of base..head.
	push *push.Plan
	// proposed is set for the agent guard: the write an agent proposes,
	// judged in staged mode instead of the staged change.
	proposed *proposal
	// pushed is the ref pre-commit's pre-push stage names without a range,
	// which the pre-push hook's planning judges (see preCommitPush).
	pushed *cienv.Push
}

// target settles the mode from the flags and, with --ci, the environment.
func (c *checkCmd) target(e *env) (target, error) {
	switch {
	case c.All:
		return target{mode: changes.ModeTree, rev: c.Rev, flag: "--rev"}, nil
	case c.Base != "":
		return target{mode: changes.ModeRange, base: c.Base, head: orHEAD(c.Head), label: "--base", flag: "--base"}, nil
	case c.Previous != "":
		return target{mode: changes.ModeRange, base: c.Previous, head: orHEAD(c.Head), previous: true, label: "--previous", flag: "--previous"}, nil
	case c.History:
		return target{mode: changes.ModeRange, head: orHEAD(c.Head), label: "--history", flag: "--history"}, nil
	case c.CI:
		r, err := cienv.Detect(e.getenv)
		if err != nil {
			return target{}, fmt.Errorf("--ci: %w", err)
		}
		if r.Index {
			return target{mode: changes.ModeStaged, index: true, label: r.Source, flag: "--ci (" + r.Source + ")"}, nil
		}
		if r.Push.Remote != "" {
			return target{pushed: &r.Push, label: r.Source, flag: "--ci (" + r.Source + ")"}, nil
		}
		// A push with nothing before it (a repository's first push, the push
		// that creates the default branch) has no trusted revision: its own
		// configuration would judge it, so the built-in one does.
		return target{mode: changes.ModeRange, base: r.Base, head: orHEAD(r.Head), previous: r.Previous, label: r.Source, flag: "--ci (" + r.Source + ")",
			noPolicy: r.Base == ""}, nil
	}
	return target{mode: changes.ModeStaged}, nil
}

func orHEAD(rev string) string {
	if rev == "" {
		return "HEAD"
	}
	return rev
}

// verify resolves every revision the target names, so that a revision
// that is not there is reported as what it is, under the option (or CI
// source) that named it.
func (t target) verify(repo *gitdiff.Repo) error {
	check := func(what, rev string) error {
		if rev == "" {
			return nil
		}
		if _, err := repo.Resolve(rev); err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		return nil
	}
	switch t.mode {
	case changes.ModeTree:
		return check(t.flag, t.rev)
	case changes.ModeRange:
		if err := check(t.flag, t.base); err != nil {
			if t.previous {
				return fmt.Errorf("%w (the previous tip must be in this repository to be compared with: fetch it first)", err)
			}
			return err
		}
		head := t.flag
		if t.flag == "--base" || t.flag == "--previous" || t.flag == "--history" {
			head = "--head"
		}
		return check(head, t.head)
	}
	return nil
}

// what names what the check looks at, for errors.
func (t target) what() string {
	switch {
	case t.push != nil:
		return "the push"
	case t.proposed != nil:
		return "the proposed write of " + t.proposed.path
	case t.mode == changes.ModeStaged:
		return "the staged change"
	case t.mode == changes.ModeTree && t.rev == "":
		return "the index"
	case t.mode == changes.ModeTree:
		return "the tree of " + t.rev
	case t.base == "":
		return "the whole history of " + t.head
	}
	return t.base + ".." + t.head
}

// describe names the range a check covered, for the report.
func (t target) describe(rewritten bool) string {
	if t.push != nil {
		s := t.push.Describe()
		if rewritten {
			s += "; a branch that does not contain the tip it replaces was compared with it"
		}
		return s
	}
	if t.base == "" {
		return fmt.Sprintf("the whole history of %s (%s)", t.head, t.label)
	}
	s := fmt.Sprintf("%s..%s (%s)", t.base, t.head, t.label)
	if rewritten {
		s += fmt.Sprintf("; %s does not contain %s, the previous tip: the two tips compared", t.head, t.base)
	}
	return s
}
