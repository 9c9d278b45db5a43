package rules

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/secrets"
)

// Options is what Check needs besides the units.
type Options struct {
	// Rules to run.
	Rules []*Rule
	// Config is the repository's configuration; nil means config.Default().
	Config *config.Config
	// Secrets finds secrets; nil turns the secret rules off.
	Secrets *secrets.Scanner
	// Actor attributes a unit; nil means every unit is Unknown.
	Actor func(*changes.Unit) (attribution.Verdict, error)
	// SliceBytes is the most bytes of versions the rules that judge each
	// workspace on their own (Rule.PerWorkspace) judge at once besides one
	// workspace (or file) of any size (see changes.Unit.Slices); 0 means
	// DefaultSliceBytes.
	SliceBytes int
}

// DefaultSliceBytes is how many bytes of versions a slice of a unit holds
// at most besides its largest workspace or file (see Options.SliceBytes):
// a decoded document takes tens of times its size, so those take a few
// megabytes, while a slice of many small files still holds enough of them
// to decode on every processor.
const DefaultSliceBytes = 256 << 10

// Check runs every rule over every unit and returns the findings sorted by
// path, line, rule, commit order and message.
func Check(units []changes.Unit, opts Options) ([]Finding, error) {
	c := NewChecker(opts)
	for i := range units {
		if err := c.Check(&units[i]); err != nil {
			return nil, err
		}
	}
	return c.Findings(), nil
}

// Checker runs the rules over units given one at a time, so that a long
// range need not be held in memory.
type Checker struct {
	opts     Options
	policy   *policy
	cache    *Cache
	findings []Finding
	order    map[string]int
	units    int
}

// NewChecker returns a Checker for opts.
func NewChecker(opts Options) *Checker {
	if opts.Config == nil {
		opts.Config = config.Default()
	}
	return &Checker{opts: opts, policy: newPolicy(opts.Config, opts.Rules), cache: newCache(), order: map[string]int{}}
}

// Check runs every rule the configuration leaves on over one unit, after
// locating the workspace of each of its changes. Rules that do not see
// excluded paths get the unit without them. The rules that judge each
// workspace on its own (Rule.PerWorkspace) run over slices of the unit
// (see changes.Unit.EachSlice), one slice after the other, each holding
// its versions while it is judged, and what they derived from one slice
// is dropped before the next: memory follows the size of a slice, not of
// the unit. The other rules see the whole unit, and no version it leaves
// unread (changes.Blob.Unread): they judge paths, places and the actor.
// A configuration that sets a rule ID no rule has is an error (see
// ValidateSettings).
func (c *Checker) Check(u *changes.Unit) error {
	if err := c.policy.err; err != nil {
		return fmt.Errorf("the configuration: %w", err)
	}
	if err := changes.Locate(u); err != nil {
		return fmt.Errorf("locating the changes: %w", err)
	}
	verdict := attribution.Verdict{Actor: attribution.Unknown}
	if c.opts.Actor != nil {
		v, err := c.opts.Actor(u)
		if err != nil {
			return err
		}
		verdict = v
	}
	if u.Commit != nil {
		c.order[u.Commit.Hash] = c.units
	}
	c.units++
	c.cache.next()
	var whole, perWorkspace []*Rule
	for _, r := range c.opts.Rules {
		switch {
		case r.Ledger || !c.policy.runs[r.ID] || (u.Mode == changes.ModeTip && !r.Continuity):
		case r.PerWorkspace:
			perWorkspace = append(perWorkspace, r)
		default:
			whole = append(whole, r)
		}
	}
	if err := c.run(u, whole, verdict); err != nil {
		return err
	}
	budget := c.opts.SliceBytes
	if budget <= 0 {
		budget = DefaultSliceBytes
	}
	first := true
	return u.EachSlice(budget, func(s *changes.Unit) error {
		if !first {
			c.cache.nextSlice()
		}
		first = false
		return c.run(s, perWorkspace, verdict)
	})
}

// run runs rules over u: the Apart ones on a goroutine of their own, one
// after the other, beside the others.
func (c *Checker) run(u *changes.Unit, list []*Rule, verdict attribution.Verdict) error {
	governed := c.policy.governed(u)
	var main, apart []*Rule
	for _, r := range list {
		if r.Apart {
			apart = append(apart, r)
		} else {
			main = append(main, r)
		}
	}
	each := func(list []*Rule, findings *[]Finding) error {
		for _, r := range list {
			pass := &Pass{Unit: governed, Actor: verdict, Config: c.opts.Config, Secrets: c.opts.Secrets, rule: r, policy: c.policy, cache: c.cache, findings: findings}
			if r.SeesExcluded {
				pass.Unit = u
			}
			if err := r.Run(pass); err != nil {
				return fmt.Errorf("rule %s: %w", r.ID, err)
			}
		}
		return nil
	}
	var aside []Finding
	var asideErr error
	var wg sync.WaitGroup
	if len(apart) > 0 {
		wg.Go(func() { asideErr = each(apart, &aside) })
	}
	err := each(main, &c.findings)
	wg.Wait()
	c.findings = append(c.findings, aside...)
	return errors.Join(err, asideErr)
}

// Findings returns the findings so far, sorted.
func (c *Checker) Findings() []Finding {
	Sort(c.findings, c.order)
	return c.findings
}

// Sort orders findings by path, line, rule, then by the position of their
// commit in the range (commitOrder, may be nil) and message.
func Sort(findings []Finding, commitOrder map[string]int) {
	slices.SortStableFunc(findings, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Rule, b.Rule),
			cmp.Compare(commitOrder[a.Commit], commitOrder[b.Commit]),
			cmp.Compare(a.Message, b.Message),
		)
	})
}
