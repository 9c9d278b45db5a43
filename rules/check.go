package rules

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/small-hook/small-hook/attribution"
	"github.com/small-hook/small-hook/config"
	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/secrets"
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
	Actor func(*gitdiff.Unit) (attribution.Verdict, error)
}

// Check runs every rule over every unit and returns the findings sorted by
// path, line, rule, commit order and message.
func Check(units []gitdiff.Unit, opts Options) ([]Finding, error) {
	rules := opts.Rules
	cfg := opts.Config
	if cfg == nil {
		cfg = config.Default()
	}
	cache := NewCache()
	var findings []Finding
	order := map[string]int{}
	for i := range units {
		u := &units[i]
		verdict := attribution.Verdict{Actor: attribution.Unknown}
		if opts.Actor != nil {
			v, err := opts.Actor(u)
			if err != nil {
				return nil, err
			}
			verdict = v
		}
		if u.Commit != nil {
			order[u.Commit.Hash] = i
		}
		for _, r := range rules {
			pass := &Pass{Unit: u, Actor: verdict, Config: cfg, Secrets: opts.Secrets, rule: r, cache: cache, findings: &findings}
			if err := r.Run(pass); err != nil {
				return nil, fmt.Errorf("rule %s: %w", r.ID, err)
			}
		}
	}
	Sort(findings, order)
	return findings, nil
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
