package smp

import (
	"math/big"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// Align matches the provenance entries of an earlier version of an
// artifact with those of a later one as smp/append-only keeps them: the
// old entries in order, each at the earliest position after the previous
// one that holds an equal entry (for a change that keeps history, that is
// the same position). It returns, for each position of cur, the index of
// the old entry standing there, or -1 where the later version holds an
// entry of its own. The ledger (`small-hook log`) uses it to find the
// commit that recorded each entry.
func Align(old, cur []any) []int {
	from := make([]int, len(cur))
	for j := range from {
		from[j] = -1
	}
	j := 0
	for i, o := range old {
		k := j
		for k < len(cur) && !yamldoc.Equal(o, cur[k]) {
			k++
		}
		if k == len(cur) {
			continue
		}
		from[k], j = i, k+1
	}
	return from
}

// VersionFollows reports whether an artifact's version cur, with
// provenance curProv, follows from an earlier version old with provenance
// oldProv as smp/version requires of one change: it rises by the number
// of new updated and merged entries, plus at most one per new synced
// entry. Versions that are not integers are left to smp/schema and
// follow.
func VersionFollows(old, cur any, oldProv, curProv []any) bool {
	o, ok1 := integer(old)
	c, ok2 := integer(cur)
	if !ok1 || !ok2 {
		return true
	}
	bumps, syncs := newActions(curProv, oldProv)
	rise := new(big.Int).Sub(c, o)
	return rise.Cmp(big.NewInt(int64(bumps))) >= 0 && rise.Cmp(big.NewInt(int64(bumps+syncs))) <= 0
}

// VersionCovers reports whether a new artifact's version is at least the
// number of its created, updated and merged entries, as smp/version
// requires; a version that is not an integer is left to smp/schema.
func VersionCovers(version any, prov []any) bool {
	v, ok := integer(version)
	if !ok {
		return true
	}
	return v.Cmp(big.NewInt(int64(countActions(prov, "created", "updated", "merged")))) >= 0
}
