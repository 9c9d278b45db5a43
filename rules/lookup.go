package rules

import (
	"strings"
)

// Lookup returns the rule that id names: the rule with that ID, or for a
// member of a family (secrets/aws-access-token) the family's rule; nil
// when no rule has that ID.
func Lookup(all []*Rule, id string) *Rule {
	for _, r := range all {
		if r.ID == id {
			return r
		}
	}
	family, _, member := strings.Cut(id, "/")
	for _, r := range all {
		if member && r.ID == family {
			return r
		}
	}
	return nil
}

// Suggest returns the rule ID that an unknown id most likely meant, or "":
// the one with the same letters in another case, the one whose name after
// the slash it is ("append-only" for small/append-only), or the closest
// one a few typing mistakes away.
func Suggest(all []*Rule, id string) string {
	lower := strings.ToLower(id)
	best, bestDist := "", max(2, len(id)/5)+1
	for _, r := range all {
		candidate := strings.ToLower(r.ID)
		_, name, _ := strings.Cut(candidate, "/")
		switch {
		case candidate == lower, name != "" && name == lower:
			return r.ID
		}
		if d := distance(lower, candidate); d < bestDist {
			best, bestDist = r.ID, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
