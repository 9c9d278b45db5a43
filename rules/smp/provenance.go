package smp

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/rules"
)

func provenanceRule(appendOnly *rules.Rule) *rules.Rule {
	return &rules.Rule{
		ID:           "smp/provenance",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `Provenance tells a consistent story
The first provenance entry is the created entry and created appears nowhere else; every new entry is no earlier than the one before it; authors only grow (SMP merges take the union of authors, so a merge commit keeps every parent's authors). In staged and range modes the entries a change adds are judged; with --all, every entry. When a change rewrites history (smp/append-only), only the entries it appends after the old ones are judged.`,
		Leaves: []*rules.Rule{appendOnly},
		Run: func(pass *rules.Pass) error {
			eachArtifact(pass, func(v versions) {
				all := v.cur.provenance()
				if len(all) > 0 && action(all[0]) != "created" && !rewritesHistory(pass, appendOnly, v) {
					pass.Report(v.path, v.cur.entryLine(0), "%s: the first provenance entry must be the `created` entry", describeEntry(0, all[0]))
				}
				newEntries, at := judgedEntries(pass, appendOnly, v)
				for k, e := range newEntries {
					i := at[k]
					if i > 0 && action(e) == "created" {
						pass.Report(v.path, v.cur.entryLine(i), "%s: `created` may only be the first provenance entry", describeEntry(i, e)).
							Hint("record later changes as updated, merged or synced")
					}
					if i == 0 || i >= len(all) {
						continue
					}
					t, ok1 := when(e)
					prev, ok2 := when(all[i-1])
					if ok1 && ok2 && t.Before(prev) {
						pass.Report(v.path, v.cur.entryLine(i), "%s: its timestamp is earlier than the entry before it", describeEntry(i, e)).
							Hint("provenance is appended in time order")
					}
				}
				if lost := lostAuthors(pass, v); len(lost) > 0 {
					pass.Report(v.path, v.cur.doc.Line("authors"), "authors lost %s", listed(lost)).
						Hint("authors only grow (a merge takes the union of both sides' authors); restore them")
				}
			})
			return nil
		},
	}
}

// lostAuthors returns the authors an earlier version (any parent of a
// merge) has and the new version does not.
func lostAuthors(pass *rules.Pass, v versions) []string {
	have := map[string]bool{}
	for _, a := range v.cur.strings("authors") {
		have[a] = true
	}
	var lost []string
	for _, prev := range previous(pass, v) {
		for _, a := range prev.strings("authors") {
			if !have[a] {
				have[a] = true
				lost = append(lost, a)
			}
		}
	}
	return lost
}

// listed names at most three values, bounded, and how many more there are.
func listed(values []string) string {
	var out []string
	for i, s := range values {
		if i == 3 {
			out = append(out, fmt.Sprintf("and %d more", len(values)-3))
			break
		}
		out = append(out, clip(s, 2*valueLength))
	}
	return strings.Join(out, ", ")
}
