package ledger

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
	ledgerrules "github.com/small-hook/small-hook/rules/ledger"
)

// rewritten reports, once per commit, the entries of f that came from a
// rewrite of history (inserted, or renamed by the reference CLI's repair)
// by a commit that is not a human's intended rewrite
// (attribution.Verdict.MayRewrite): the ledger cannot verify them.
func rewritten(f File) []rules.Finding {
	byCommit := map[*Commit][]int{}
	var commits []*Commit
	add := func(c *Commit, i int) {
		if c.Verdict.MayRewrite() {
			return
		}
		if _, ok := byCommit[c]; !ok {
			commits = append(commits, c)
		}
		byCommit[c] = append(byCommit[c], i)
	}
	for i, e := range f.Entries {
		if e.Origin == Inserted {
			add(e.Commit, i)
		}
		if e.Renamed != nil {
			add(e.Renamed.Commit, i)
		}
	}
	var out []rules.Finding
	for _, c := range commits {
		entries := byCommit[c]
		out = append(out, finding(ledgerrules.RewrittenID, f, f.Entries[entries[0]].Line, c,
			"commit %s %s, and it is not a human's intended rewrite (%s): the ledger cannot verify who recorded %s; a human commit with the trailer Small-Rewrite: <reason> that restores the entries as they were before commit %s (or removes them) makes the ledger verifiable again",
			words.ShortID(c.Hash), rewrites(f, c, entries), verdictText(c), words.Plural(len(entries), "this entry", "these entries"), words.ShortID(c.Hash)))
	}
	return out
}

// rewrites says what commit c did to the entries of f: "inserted progress
// entry 3 (task_id x)", "renamed 2 progress entries (2 and 5)".
func rewrites(f File, c *Commit, entries []int) string {
	var inserted, renamed []int
	for _, i := range entries {
		if e := f.Entries[i]; e.Renamed != nil && e.Renamed.Commit == c {
			renamed = append(renamed, i)
		} else {
			inserted = append(inserted, i)
		}
	}
	var parts []string
	if len(inserted) > 0 {
		parts = append(parts, "inserted "+positions(f, inserted)+" before or in place of entries an earlier version held")
	}
	if len(renamed) > 0 {
		parts = append(parts, "renamed the task_id of "+positions(f, renamed)+" (small fix --orphan-progress)")
	}
	return strings.Join(parts, " and ")
}

// verdictText says who made a commit, for messages: "agent, trailer
// Co-Authored-By: Claude <…".
func verdictText(c *Commit) string {
	v := c.Verdict
	s := fmt.Sprintf("%s, %s", v.Actor, rules.Cut(v.Evidence))
	if v.Rewrite != "" {
		s += "; Small-Rewrite: " + rules.Cut(v.Rewrite)
	}
	return s
}
