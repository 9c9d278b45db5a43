package main

import (
	"strings"

	"github.com/small-hook/small-hook/internal/ledger"
)

// ledger redacts everything of l that came from the repository before it
// is written anywhere: paths, what the entries claim, the evidence they
// name, the identities, verdicts and signatures of the commits that
// recorded (or renamed) them, and the findings. A ledger repeats the same values many
// times (an identity for every entry a commit recorded), so each distinct
// string is redacted once.
func (r *redactor) ledger(l *ledger.Ledger) {
	done := map[string]string{}
	red := func(s *string) {
		if *s == "" {
			return
		}
		v, ok := done[*s]
		if !ok {
			v = r.text(*s)
			done[*s] = v
		}
		*s = v
	}
	commits := map[*ledger.Commit]bool{}
	for i := range l.Files {
		f := &l.Files[i]
		red(&f.Path)
		for j := range f.Entries {
			e := &f.Entries[j]
			c := &e.Claim
			for _, s := range []*string{&c.TaskID, &c.Status, &c.Agent, &c.Action, &c.Message} {
				red(s)
			}
			if !c.Timed || !onlyTime(c.Timestamp) {
				red(&c.Timestamp)
			}
			for k := range e.Evidence {
				red(&e.Evidence[k].Field)
				red(&e.Evidence[k].Ref)
			}
			recorders := []*ledger.Commit{e.Commit}
			if e.Renamed != nil {
				red(&e.Renamed.From)
				recorders = append(recorders, e.Renamed.Commit)
			}
			for _, c := range recorders {
				if c != nil && !commits[c] {
					commits[c] = true
					r.commit(c, red)
				}
			}
		}
	}
	for i := range l.Findings {
		red(&l.Findings[i].Message)
		red(&l.Findings[i].Path)
	}
}

// commit redacts what a commit of the ledger says about who made it.
func (r *redactor) commit(c *ledger.Commit, red func(*string)) {
	v := &c.Verdict
	for _, s := range []*string{&c.Author.Name, &c.Author.Email, &c.Committer.Name, &c.Committer.Email, &v.Evidence, &v.Contradicted, &v.Disputed} {
		red(s)
	}
	for i := range v.Agents {
		red(&v.Agents[i])
	}
	if s := v.Signature; s != nil {
		for _, f := range []*string{&s.Signer, &s.Key, &s.Entry, &s.Detail} {
			red(f)
		}
	}
}

// onlyTime reports whether a timestamp that parsed as RFC 3339 holds
// nothing but digits and the separators of a time, which no secret is
// made of: a ledger has one for every entry, and they need no redaction.
func onlyTime(s string) bool {
	return strings.Trim(s, "0123456789TtZz:.+-") == ""
}
