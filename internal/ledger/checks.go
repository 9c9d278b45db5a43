package ledger

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/signature"
	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
	ledgerrules "github.com/small-hook/small-hook/rules/ledger"
)

// checks runs the ledger rules over the entries of l (the artifact
// metadata was judged during the walk).
func (b *Builder) checks(l *Ledger) []rules.Finding {
	var out []rules.Finding
	for _, f := range l.Files {
		out = append(out, rewritten(f)...)
		byCommit := map[*Commit][]int{}
		var commits []*Commit
		for i, e := range f.Entries {
			if e.Origin == BeforeHistory {
				continue
			}
			out = append(out, b.futureEntry(f, e)...)
			out = append(out, evidenceFindings(f, e)...)
			if f.Kind == Provenance {
				out = append(out, b.agentIdentity(f, e)...)
			}
			if _, ok := byCommit[e.Commit]; !ok {
				commits = append(commits, e.Commit)
			}
			byCommit[e.Commit] = append(byCommit[e.Commit], i)
		}
		for _, c := range commits {
			out = append(out, b.backfilled(f, c, byCommit[c])...)
			if f.Kind == Progress {
				out = append(out, humanRecorded(f, c, byCommit[c])...)
			}
		}
	}
	return out
}

// finding is a finding of a ledger rule at its default severity.
func finding(id string, f File, line int, c *Commit, format string, args ...any) rules.Finding {
	sev := rules.Error
	if id == ledgerrules.BackfilledID || id == ledgerrules.HumanRecordedID {
		sev = rules.Warning
	}
	return rules.Finding{Rule: id, Severity: sev, Path: f.Path, Line: line, Commit: c.Hash, Message: fmt.Sprintf(format, args...)}
}

// futureEntry reports an entry whose timestamp is later than the commit
// that recorded it, beyond the clock skew allowed.
func (b *Builder) futureEntry(f File, e Entry) []rules.Finding {
	c := e.Commit
	if !e.Claim.Timed || !e.Claim.Time.After(c.Date.Add(b.cfg.ClockSkew)) {
		return nil
	}
	return []rules.Finding{finding(ledgerrules.FutureEntryID, f, e.Line, c,
		"%s claims %s, %s after commit %s recorded it (committer date %s; ledger.clock-skew allows %s): an entry cannot be recorded before it happened; fix the clock of the machine that wrote it, and append an entry that supersedes it",
		entryName(f.Kind, e), rules.Quote(e.Claim.Timestamp), span(e.Claim.Time.Sub(c.Date)), words.ShortID(c.Hash), stamp(c.Date), config.FormatDuration(b.cfg.ClockSkew))}
}

// backfilled reports, once per commit, the entries it appended long after
// the time they claim.
func (b *Builder) backfilled(f File, c *Commit, entries []int) []rules.Finding {
	var late []int
	var least, most time.Duration
	for _, i := range entries {
		e := f.Entries[i]
		if e.Origin == WithFile || !e.Claim.Timed {
			continue
		}
		d := c.AuthorDate.Sub(e.Claim.Time)
		if d <= b.cfg.Backfill {
			continue
		}
		if len(late) == 0 || d < least {
			least = d
		}
		most = max(most, d)
		late = append(late, i)
	}
	if len(late) == 0 {
		return nil
	}
	gap := span(least)
	if most != least {
		gap = span(least) + " to " + span(most)
	}
	return []rules.Finding{finding(ledgerrules.BackfilledID, f, f.Entries[late[0]].Line, c,
		"commit %s (authored %s) recorded %s %s after %s (more than ledger.backfill, %s): progress is committed as it is made; if the delay is your workflow, raise ledger.backfill in .small-hook.yml",
		words.ShortID(c.Hash), stamp(c.AuthorDate), positions(f, late), gap, words.Plural(len(late), "its timestamp", "their timestamps"), config.FormatDuration(b.cfg.Backfill))}
}

// evidenceFindings reports the commits an entry names as evidence that do
// not come before the commit that recorded it.
func evidenceFindings(f File, e Entry) []rules.Finding {
	var out []rules.Finding
	for _, ev := range e.Evidence {
		var why string
		switch ev.Status {
		case Missing:
			why = "no commit of this history starts with it"
		case Ambiguous:
			why = "several commits of this history start with it; write more digits"
		case NotAncestor:
			why = "that commit (" + words.ShortID(ev.Commit) + ") is not an ancestor of it"
		default:
			continue
		}
		out = append(out, finding(ledgerrules.EvidenceCommitID, f, e.Line, e.Commit,
			"%s names commit %s as evidence (%s), but commit %s recorded the entry and %s: evidence that cannot be found before the entry proves nothing; name the commit that did the work",
			entryName(f.Kind, e), rules.Cut(ev.Ref), rules.Cut(ev.Field), words.ShortID(e.Commit.Hash), why))
	}
	return out
}

// humanRecorded reports, once per commit, agent-owned progress entries
// that a commit attributed to a human recorded.
func humanRecorded(f File, c *Commit, entries []int) []rules.Finding {
	if c.Verdict.Actor != attribution.Human {
		return nil
	}
	return []rules.Finding{finding(ledgerrules.HumanRecordedID, f, f.Entries[entries[0]].Line, c,
		"commit %s, attributed to a human (%s), recorded %s of agent-owned progress: the ledger cannot tell which agent wrote %s",
		words.ShortID(c.Hash), rules.Cut(c.Verdict.Evidence), positions(f, entries), words.Plural(len(entries), "it", "them"))}
}

// agentIdentity reports a provenance entry whose agent the configuration
// maps to identities that the commit recording it does not name.
func (b *Builder) agentIdentity(f File, e Entry) []rules.Finding {
	did := e.Claim.Agent
	emails := b.cfg.Emails(did)
	if len(emails) == 0 || names(e.Commit, emails) {
		return nil
	}
	return []rules.Finding{finding(ledgerrules.AgentIdentityID, f, e.Line, e.Commit,
		"%s claims agent %s, which commits as %s, but commit %s that recorded it is %s's (%s): the entry claims one identity while the commit says another; record it under the committing agent's DID, or commit as the agent it names",
		entryName(f.Kind, e), rules.Cut(did), listed(emails), words.ShortID(e.Commit.Hash), e.Commit.Verdict.Actor, rules.Cut(who(e.Commit)))}
}

// identities are the e-mail addresses a commit names: its author, its
// committer, the agents it names (co-authors) and the principal its
// signature proves.
func identities(c *Commit) []string {
	out := []string{c.Author.Email, c.Committer.Email}
	out = append(out, c.Verdict.Agents...)
	if s := c.Verdict.Signature; s != nil && s.Verdict == signature.Valid {
		out = append(out, s.Signer)
	}
	return out
}

// names reports whether commit c names one of the e-mail addresses.
func names(c *Commit, emails []string) bool {
	for _, id := range identities(c) {
		for _, e := range emails {
			if strings.EqualFold(id, e) {
				return true
			}
		}
	}
	return false
}

// who names a commit's author for messages.
func who(c *Commit) string {
	return c.Author.Name + " <" + c.Author.Email + ">"
}

// entryName names an entry in messages, one way everywhere: "progress
// entry 5 (task_id task-3)", "provenance entry 3 (updated by
// did:key:z6MkvmWSVtpUTrKQ…)".
func entryName(kind Kind, e Entry) string {
	if kind == Progress {
		return fmt.Sprintf("progress entry %d (task_id %s)", e.Position+1, rules.Cut(orUnknown(e.Claim.TaskID)))
	}
	return fmt.Sprintf("provenance entry %d (%s by %s)", e.Position+1, rules.Cut(orUnknown(e.Claim.Action)), rules.Cut(orUnknown(e.Claim.Agent)))
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// positions names a set of entries of a file: "progress entry 7 (task_id
// x)", or "63 progress entries (7 to 69)" for a run, "3 progress entries
// (7, 9 and 12)" otherwise.
func positions(f File, list []int) string {
	if len(list) == 1 {
		return entryName(f.Kind, f.Entries[list[0]])
	}
	first, last := list[0], list[len(list)-1]
	kind := string(f.Kind) + " entries"
	if last-first+1 == len(list) {
		return fmt.Sprintf("%d %s (%d to %d)", len(list), kind, first+1, last+1)
	}
	var nums []string
	for i, p := range list {
		if i == 5 {
			nums = append(nums, fmt.Sprintf("%d more", len(list)-5))
			break
		}
		nums = append(nums, fmt.Sprint(p+1))
	}
	return fmt.Sprintf("%d %s (%s)", len(list), kind, strings.Join(nums[:len(nums)-1], ", ")+" and "+nums[len(nums)-1])
}

// listed names a few values: "a", "a or b", "a, b or c".
func listed(values []string) string {
	out := slices.Clone(values)
	for i := range out {
		out[i] = rules.Cut(out[i])
	}
	if len(out) == 1 {
		return out[0]
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// stamp writes a commit date in UTC, to the second.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// span writes a duration the way people say it: "45s", "3m", "2h5m",
// "9d4h".
func span(d time.Duration) string {
	d = d.Abs()
	day := 24 * time.Hour
	two := func(big, small int64, bigUnit, smallUnit string) string {
		if small == 0 {
			return fmt.Sprintf("%d%s", big, bigUnit)
		}
		return fmt.Sprintf("%d%s%d%s", big, bigUnit, small, smallUnit)
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", d/time.Second)
	case d < time.Hour:
		return fmt.Sprintf("%dm", d/time.Minute)
	case d < day:
		return two(int64(d/time.Hour), int64(d%time.Hour/time.Minute), "h", "m")
	}
	return two(int64(d/day), int64(d%day/time.Hour), "d", "h")
}
