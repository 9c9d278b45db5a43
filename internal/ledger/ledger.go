// Package ledger computes the verified ledger that `small-hook log`
// prints: for every SMALL progress entry and SMP provenance entry of the
// files at a revision, the commit that recorded it (the first commit whose
// version of the file holds the entry at that position, found with the
// alignment the append-only rules use), who made that commit, what the
// entry claims, and the checks of those claims against the commits (the
// rules of rules/ledger).
//
// It is pure: it reads the units of change of a history walked parents
// first (gitdiff.History) and never opens a repository or prints. Its cost
// follows the history: an entry that a commit only appends is decoded
// once, by that commit, and carried forward from then on.
package ledger

import (
	"time"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/rules"
)

// Kind is the kind of list a ledger file keeps.
type Kind string

// The two kinds of ledger file.
const (
	// Progress is a SMALL workspace's progress.small.yml: its entries.
	Progress Kind = "progress"
	// Provenance is an SMP knowledge artifact: its provenance entries.
	Provenance Kind = "provenance"
)

// Origin says how an entry came into its file, and so what the ledger
// knows about the commit that recorded it.
type Origin string

// The origins of an entry.
const (
	// Appended: the commit added the entry after every entry that the
	// file's earlier version kept.
	Appended Origin = "appended"
	// Inserted: the commit put the entry before entries the earlier
	// version already held, or in place of one it dropped: a rewrite of
	// history (small/append-only and smp/append-only report it).
	Inserted Origin = "inserted"
	// WithFile: the entry arrived with the first version of its file in
	// the history (the commit added the file holding it): written before
	// git held it, as when a workspace is committed for the first time.
	WithFile Origin = "with-file"
	// BeforeHistory: the entry was already in the file at a shallow
	// clone's boundary commit; which commit recorded it is beyond the
	// history the clone holds, and the ledger does not guess.
	BeforeHistory Origin = "before-history"
)

// Node is one commit of the history the ledger walks.
type Node struct {
	Hash string
	// Parents are the ids of its parents, first parent first; none for a
	// root commit and for a boundary commit.
	Parents []string
	// Boundary marks a shallow clone's boundary commit.
	Boundary bool
}

// Commit is a commit that recorded entries.
type Commit struct {
	Hash string
	// Date is the committer date: when the commit was made.
	Date time.Time
	// AuthorDate is the author date: when its change was first committed.
	AuthorDate        time.Time
	Author, Committer changes.Identity
	// Verdict is who made the commit, and why the verdict is what it is;
	// Verdict.Signature is set when the repository has a signature policy.
	Verdict attribution.Verdict
	// Boundary marks a shallow clone's boundary commit: entries it holds
	// were recorded at it or before it.
	Boundary bool
}

// Claim is what an entry says about itself.
type Claim struct {
	// TaskID and Status are a progress entry's task_id and status.
	TaskID, Status string
	// Agent, Action and Message are a provenance entry's agent, action
	// and message.
	Agent, Action, Message string
	// Timestamp is the entry's timestamp as written; Time is its value
	// and Timed says whether it parsed as RFC 3339.
	Timestamp string
	Time      time.Time
	Timed     bool
}

// EvidenceStatus is what the ledger found of a commit that an entry's
// evidence names.
type EvidenceStatus string

// The statuses of a commit named as evidence.
const (
	// Ancestor: the commit is an ancestor of the commit that recorded the
	// entry: the evidence can be checked.
	Ancestor EvidenceStatus = "ancestor"
	// NotAncestor: the commit is in the history, but not before the
	// commit that recorded the entry.
	NotAncestor EvidenceStatus = "not-ancestor"
	// Missing: no commit of the history starts with these digits.
	Missing EvidenceStatus = "missing"
	// Ambiguous: several commits of the history start with these digits.
	Ambiguous EvidenceStatus = "ambiguous"
	// Undecided: the clone is shallow and does not hold the commit, or
	// the entry was recorded before the history the clone holds.
	Undecided EvidenceStatus = "undecided"
)

// Evidence is one commit an entry's evidence names.
type Evidence struct {
	// Field is where the entry names it: "commit", "evidence.commit_sha".
	Field string
	// Ref is the commit as the entry writes it (7 to 40 hex digits).
	Ref string
	// Commit is the full id Ref names in the history, when exactly one
	// commit matches.
	Commit string
	Status EvidenceStatus
}

// Entry is one entry of a ledger file, as the file holds it at the head.
type Entry struct {
	// Position is the entry's 0-based position in its list.
	Position int
	// Line is the file line the entry starts on at the head.
	Line  int
	Claim Claim
	// Commit recorded the entry: the first commit whose version of the
	// file holds it at this position. For a BeforeHistory entry it is the
	// boundary commit that already held it.
	Commit *Commit
	Origin Origin
	// Renamed is set for an entry whose task_id the reference CLI's
	// `small fix --orphan-progress` rewrote after Commit recorded it: the
	// entry keeps its recorder.
	Renamed *Renamed
	// Evidence lists the commits the entry's evidence names.
	Evidence []Evidence
}

// Renamed is the reference CLI's rewrite of an entry's task_id.
type Renamed struct {
	// Commit wrote the new task_id.
	Commit *Commit
	// From is the task_id the entry had before.
	From string
}

// File is the ledger of one file.
type File struct {
	// Path is relative to the repository root, slash-separated.
	Path    string
	Kind    Kind
	Entries []Entry
}

// Ledger is the ledger of the files at a head.
type Ledger struct {
	// Head is the full id of the commit the ledger describes.
	Head string
	// Files are sorted by path.
	Files []File
	// Commits is the number of commits walked.
	Commits int
	// Shallow is set when the history walked ends at a shallow clone's
	// boundary instead of at its root commits.
	Shallow bool
	// Findings are the ledger rules' findings at their default severities
	// (see rules.Settings to apply the configuration), sorted by path,
	// line, rule and message.
	Findings []rules.Finding
}

// Entries counts the entries of every file.
func (l *Ledger) Entries() int {
	n := 0
	for _, f := range l.Files {
		n += len(f.Entries)
	}
	return n
}
