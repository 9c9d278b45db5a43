package report

import (
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/internal/ledger"
	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
)

// LedgerReport is everything the formats of `small-hook log` print.
type LedgerReport struct {
	Tool    string
	Version string
	// Rev is the revision as the command line named it ("HEAD").
	Rev string
	// Config names where the configuration came from ("the
	// .small-hook.yml of <id>", or a --config file).
	Config string
	// Ledger is the ledger, its findings already set by the
	// configuration.
	Ledger *ledger.Ledger
}

// Errors counts the error findings.
func (r *LedgerReport) Errors() int { return countSeverity(r.Ledger.Findings, rules.Error) }

// Warnings counts the warning findings.
func (r *LedgerReport) Warnings() int { return countSeverity(r.Ledger.Findings, rules.Warning) }

func countSeverity(findings []rules.Finding, sev rules.Severity) int {
	n := 0
	for _, f := range findings {
		if f.Severity == sev {
			n++
		}
	}
	return n
}

// ledgerFindings returns the findings in the order every format prints
// them (see ordered).
func ledgerFindings(r *LedgerReport) []rules.Finding {
	return ordered(&Result{Findings: r.Ledger.Findings})
}

// LedgerSummary is the one-line summary of a ledger: "1,206 entries in 7
// files, 93 commits: no problems", or "…: 1 error, 2 warnings".
func LedgerSummary(r *LedgerReport) string {
	l := r.Ledger
	s := fmt.Sprintf("%s in %s, %s", words.Count(l.Entries(), "entry", "entries"), words.Count(len(l.Files), "file", "files"), words.Count(l.Commits, "commit", "commits"))
	if l.Shallow {
		s += " (a shallow clone: its history ends at a boundary)"
	}
	errs, warns := r.Errors(), r.Warnings()
	if errs+warns == 0 {
		return s + ": no problems"
	}
	var counts []string
	if errs > 0 {
		counts = append(counts, words.Count(errs, "error", "errors"))
	}
	if warns > 0 {
		counts = append(counts, words.Count(warns, "warning", "warnings"))
	}
	return s + ": " + strings.Join(counts, ", ")
}

// claimText is what an entry claims, in one line: "task-3 completed" for
// progress, "updated by did:key:z6Mk…" for provenance (timestamps apart).
func claimText(kind ledger.Kind, c ledger.Claim) string {
	if kind == ledger.Progress {
		return strings.TrimSpace(orDash(c.TaskID) + " " + c.Status)
	}
	return orDash(c.Action) + " by " + orDash(c.Agent)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// actorText is who recorded an entry: the commit's actor, or "?" for an
// entry the history does not show being recorded.
func actorText(e ledger.Entry) string {
	if e.Origin == ledger.BeforeHistory {
		return "?"
	}
	return string(e.Commit.Verdict.Actor)
}

// entryNote marks the entries that were not simply appended, and those
// whose task_id the reference CLI's repair renamed.
func entryNote(e ledger.Entry) string {
	var notes []string
	switch e.Origin {
	case ledger.WithFile:
		notes = append(notes, "with the file")
	case ledger.Inserted:
		notes = append(notes, "inserted")
	case ledger.BeforeHistory:
		notes = append(notes, "before the clone's history")
	}
	if r := e.Renamed; r != nil {
		notes = append(notes, "renamed from "+orDash(r.From)+" by "+words.ShortID(r.Commit.Hash)+", small fix --orphan-progress")
	}
	return strings.Join(notes, "; ")
}

// signatureText is the signature status of the commit that recorded an
// entry, when the repository has a signature policy.
func signatureText(e ledger.Entry) string {
	if e.Origin == ledger.BeforeHistory || e.Commit.Verdict.Signature == nil {
		return ""
	}
	return e.Commit.Verdict.Signature.Verdict.String()
}
