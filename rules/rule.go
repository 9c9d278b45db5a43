// Package rules is the API of small-hook's checks. A rule is a plain value with an
// ID, a doc and a Run function over one unit of change (the staged change,
// one commit, or one tree); rules never open a repository and never print:
// they report findings through their Pass.
package rules

import (
	"fmt"
	"slices"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/internal/secrets"
)

// Severity is how bad a finding is. Only errors fail a check.
type Severity string

// The two severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Finding is one problem found in one file.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// Path is relative to the repository root, slash-separated.
	Path string `json:"path"`
	// Line is 1-based; 0 means the finding is about the file as a whole
	// (a deleted file, a missing file).
	Line    int    `json:"line"`
	Message string `json:"message"`
	// Hint says how to fix the finding, or why the rule holds: the same
	// for many findings of a rule, so the text format prints it once after
	// the list; empty when the message says it all.
	Hint string `json:"hint,omitempty"`
	// Commit is the full commit id in range mode, empty otherwise.
	Commit string `json:"commit,omitempty"`
}

// Text is the finding's message with its hint, for a reader who sees one
// finding alone (a GitHub annotation, a SARIF result): "what: why; fix".
func (f Finding) Text() string {
	if f.Hint == "" {
		return f.Message
	}
	return f.Message + ": " + f.Hint
}

// Rule is one check.
type Rule struct {
	// ID is stable and public: users write it into configuration. An ID
	// without a slash names a family: the rule reports its findings with
	// ReportAs under ID/<name> (secrets/aws-access-token), and the
	// configuration can address the family or one of its names.
	ID string
	// Doc's first line is a title; the rest explains what the rule checks
	// and how to fix a finding.
	Doc string
	// Severity is the severity of the rule's findings unless a report says
	// otherwise or the configuration overrides it.
	Severity Severity
	// OffByDefault makes the rule run only when the configuration gives it
	// a severity (rules: {ID: warning}).
	OffByDefault bool
	// SeesExcluded makes the rule judge paths the configuration excludes
	// too; every other rule is handed units without them.
	SeesExcluded bool
	// Apart lets the rule run on a goroutine of its own, beside the rules
	// without it, one Apart rule after another: the rule reads the unit's
	// changes, the cache and Pass.Secrets (all safe for concurrent use) but
	// no snapshot (Unit.Files, Unit.Before): their reader serves the other
	// rules and is not safe for concurrent use.
	Apart bool
	// PerWorkspace marks a rule that judges each SMALL workspace on its
	// own, and every other file (a knowledge artifact, a file of .awp/)
	// alone, reading anything else it needs from the unit's snapshots: what
	// it reports about a unit is what it reports about each slice of the
	// unit (changes.Unit.Slices keeps a SMALL workspace's changes
	// together), so the checker runs it over slices of a large unit and
	// drops what it derived from one slice before the next. A rule that
	// compares changes to different workspaces or artifacts, or reports
	// once per unit, must not set it; rulestest runs every case both ways.
	// Only such a rule reads the versions of a unit that leaves them unread
	// (changes.Blob.Unread): every other one sees their paths and places.
	PerWorkspace bool
	// Run checks one unit and reports through the pass. An error means the
	// check could not be done (exit code 2), never that a rule fired.
	Run func(*Pass) error
	// Ledger marks a rule that judges the ledger `small-hook log` builds
	// from a whole history (the commit that recorded each entry, and what
	// the entries claim), not one unit of change: its Run is nil, check
	// never runs it, and the ledger reports its findings through Settings.
	Ledger bool
	// Continuity marks a rule that judges whether one version of a file
	// continues the history of another (append-only entries, ids, versions
	// that never go down): the only rules a tip comparison
	// (changes.ModeTip) runs. Content rules (schemas, evidence, timestamps,
	// ownership, secrets) judged each commit already.
	Continuity bool
	// Leaves lists the rules this rule leaves a consequence unsaid to:
	// where one of them reports a cause (a rewrite of history, a value of
	// the wrong type), this rule does not report what follows from it, as
	// long as that rule runs (see Pass.Reports). One problem, one finding.
	Leaves []*Rule
}

// Pass is what a rule's Run receives: one unit of change and everything
// needed to judge it.
type Pass struct {
	// Unit is the change being checked.
	Unit *changes.Unit
	// Actor is who made the unit's change.
	Actor attribution.Verdict
	// Config is the repository's configuration.
	Config *config.Config
	// Secrets finds secrets; nil when secret detection is off.
	Secrets *secrets.Scanner

	rule     *Rule
	policy   *policy
	cache    *Cache
	findings *[]Finding
}

// Report records a finding of the running rule at its default severity.
func (p *Pass) Report(path string, line int, format string, args ...any) Reported {
	return p.ReportAs(p.rule.ID, p.rule.Severity, path, line, format, args...)
}

// ReportSeverity records a finding of the running rule at severity sev.
func (p *Pass) ReportSeverity(sev Severity, path string, line int, format string, args ...any) Reported {
	return p.ReportAs(p.rule.ID, sev, path, line, format, args...)
}

// ReportAs records a finding under an explicit rule ID, for rules that
// report a family of IDs (secrets/<gitleaks rule>). The configuration has
// the last word: a severity it sets replaces sev, a rule ID it turns off
// and a path it excludes record nothing.
func (p *Pass) ReportAs(id string, sev Severity, path string, line int, format string, args ...any) Reported {
	sev, keep := p.policy.severity(p.rule, id, sev)
	if !keep || !p.policy.judges(p.rule, path) {
		return Reported{}
	}
	f := Finding{Rule: id, Severity: sev, Path: path, Line: line, Message: fmt.Sprintf(format, args...)}
	if p.Unit.Commit != nil {
		f.Commit = p.Unit.Commit.Hash
	}
	*p.findings = append(*p.findings, f)
	return Reported{findings: p.findings, i: len(*p.findings) - 1}
}

// Reported is the finding a Report method just recorded, to add its hint
// to; the zero value, for a finding the configuration dropped, ignores it.
type Reported struct {
	findings *[]Finding
	i        int
}

// Hint sets the finding's hint: why the rule holds and how to fix what it
// found, said once per rule in the text output (the message says what is
// wrong with this file, in one line). Call it right after the Report.
func (r Reported) Hint(format string, args ...any) {
	if r.findings != nil {
		(*r.findings)[r.i].Hint = fmt.Sprintf(format, args...)
	}
}

// Reports reports whether r runs in this check, for a rule that leaves a
// consequence unsaid to r, which reports its cause. r must be one of the
// running rule's Leaves: a rule it does not declare there never counts as
// running, so that a dependency is never left unsaid in the declaration.
func (p *Pass) Reports(r *Rule) bool {
	return slices.Contains(p.rule.Leaves, r) && p.policy.runs[r.ID]
}
