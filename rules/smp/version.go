package smp

import (
	"fmt"
	"math/big"

	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
)

func versionRule(schema, appendOnly *rules.Rule) *rules.Rule {
	return &rules.Rule{
		ID:           "smp/version",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `The version counter rises by one per recorded change
SMP: version starts at 1 and every update or merge increments it by 1. The version is judged by its value, however it is spelled (3, 3.0 and 3e0 are 3; a version that is not an integer is reported by smp/schema). Compared with the previous version, version must rise by exactly the number of new updated and merged provenance entries (a new synced entry may raise it by one or not: awp sync does both), and never go down. A merge commit's version follows from its parents the same way: from at least one parent, by the entries the merge adds to that parent. A new artifact's version is at least the number of its created, updated and merged entries.`,
		Continuity: true,
		Leaves:     []*rules.Rule{schema, appendOnly},
		Run: func(pass *rules.Pass) error {
			eachArtifact(pass, func(v versions) {
				cur, ok := v.cur.version()
				if !ok || cur.Sign() <= 0 && pass.Reports(schema) || rewritesHistory(pass, appendOnly, v) {
					return // smp/schema or smp/append-only reports it
				}
				line := v.cur.doc.Line("version")
				prevs := previous(pass, v)
				if len(prevs) == 0 {
					if n := countActions(v.cur.provenance(), "created", "updated", "merged"); cur.Cmp(big.NewInt(int64(n))) < 0 {
						pass.Report(v.path, line, "version %s is below the %d created, updated and merged provenance entries", v.cur.written("version"), n).
							Hint("each of them raised the version by one; set version to %d", n)
					}
					return
				}
				var complaint, hint string
				for pi, prev := range prevs {
					old, ok := prev.version()
					if !ok {
						return // the earlier version was reported when it was made
					}
					bumps, syncs := newActions(v.cur.provenance(), prev.provenance())
					rise := new(big.Int).Sub(cur, old)
					if rise.Cmp(big.NewInt(int64(bumps))) >= 0 && rise.Cmp(big.NewInt(int64(bumps+syncs))) <= 0 {
						return
					}
					if pi == 0 {
						complaint, hint = versionComplaint(v, prev, cur, old, rise, bumps)
					}
				}
				pass.Report(v.path, line, "%s", complaint).Hint("%s", hint)
			})
			return nil
		},
	}
}

// versionComplaint says how version cur fails to follow from prev's version
// old with bumps new updated and merged entries, and how to fix it.
func versionComplaint(v versions, prev *artifact, cur, old, rise *big.Int, bumps int) (msg, hint string) {
	want := new(big.Int).Add(old, big.NewInt(int64(bumps)))
	written := v.cur.written("version")
	if v.change.Merge != nil {
		return fmt.Sprintf("version %s of the merge does not follow from its parents", written),
			fmt.Sprintf("the first parent has version %s and the merge brings it %d updated/merged provenance entries; each recorded change raises the version by exactly one: set version to %s",
				prev.written("version"), bumps, want)
	}
	if rise.Sign() < 0 {
		return fmt.Sprintf("version went down from %s to %s", prev.written("version"), written), fmt.Sprintf("versions only rise; set version to %s", want)
	}
	return fmt.Sprintf("version rose by %s (%s to %s) but %d updated/merged provenance entries were added", rise, prev.written("version"), written, bumps),
		fmt.Sprintf("each recorded change raises the version by exactly one; set version to %s", want)
}

// newActions counts the entries of cur that old does not hold (each old
// entry accounts for one equal entry of cur) by what they do to the
// version: updated and merged entries raise it, synced entries may.
func newActions(cur, old []any) (bumps, syncs int) {
	used := make([]bool, len(cur))
	for _, o := range old {
		for i, c := range cur {
			if !used[i] && yamldoc.Equal(o, c) {
				used[i] = true
				break
			}
		}
	}
	for i, c := range cur {
		if used[i] {
			continue
		}
		switch action(c) {
		case "updated", "merged":
			bumps++
		case "synced":
			syncs++
		}
	}
	return bumps, syncs
}

func countActions(entries []any, actions ...string) int {
	n := 0
	for _, e := range entries {
		for _, a := range actions {
			if action(e) == a {
				n++
			}
		}
	}
	return n
}
