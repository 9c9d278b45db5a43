package report

import (
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/small-hook/small-hook/internal/ledger"
)

// ledgerJSON is the JSON contract of `small-hook log --format json`; field
// order is part of it, and it only grows.
type ledgerJSON struct {
	Tool     string            `json:"tool"`
	Version  string            `json:"version"`
	Rev      string            `json:"rev"`
	Head     string            `json:"head"`
	Config   string            `json:"config"`
	Shallow  bool              `json:"shallow"`
	Files    []ledgerFileJSON  `json:"files"`
	Findings []jsonFinding     `json:"findings"`
	Summary  ledgerSummaryJSON `json:"summary"`
}

type ledgerFileJSON struct {
	Path    string            `json:"path"`
	Kind    string            `json:"kind"`
	Entries []ledgerEntryJSON `json:"entries"`
}

type ledgerEntryJSON struct {
	Position int                  `json:"position"`
	Line     int                  `json:"line"`
	Claim    ledgerClaimJSON      `json:"claim"`
	Recorded ledgerRecordedJSON   `json:"recorded"`
	Evidence []ledgerEvidenceJSON `json:"evidence"`
	Renamed  *ledgerRenamedJSON   `json:"renamed,omitempty"`
}

// ledgerRenamedJSON is the reference CLI's rewrite of an entry's task_id:
// the commit that made it, who made that commit, and the old task_id.
type ledgerRenamedJSON struct {
	Commit   string `json:"commit"`
	From     string `json:"from"`
	Actor    string `json:"actor"`
	Evidence string `json:"evidence"`
}

// ledgerClaimJSON holds task_id and status for progress entries, agent,
// action and message for provenance entries, and timestamp for both.
type ledgerClaimJSON struct {
	TaskID    *string `json:"task_id,omitempty"`
	Status    *string `json:"status,omitempty"`
	Agent     *string `json:"agent,omitempty"`
	Action    *string `json:"action,omitempty"`
	Message   string  `json:"message,omitempty"`
	Timestamp string  `json:"timestamp"`
}

type ledgerRecordedJSON struct {
	Commit     string         `json:"commit"`
	Origin     string         `json:"origin"`
	Date       string         `json:"date"`
	AuthorDate string         `json:"author_date"`
	Author     string         `json:"author"`
	Committer  string         `json:"committer"`
	Actor      string         `json:"actor,omitempty"`
	Evidence   string         `json:"evidence,omitempty"`
	Signature  *jsonSignature `json:"signature,omitempty"`
}

type ledgerEvidenceJSON struct {
	Field  string `json:"field"`
	Ref    string `json:"ref"`
	Commit string `json:"commit,omitempty"`
	Status string `json:"status"`
}

type ledgerSummaryJSON struct {
	Files    int `json:"files"`
	Entries  int `json:"entries"`
	Commits  int `json:"commits"`
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
}

// LedgerJSON writes the ledger as one JSON document (docs/ledger.md
// describes every field):
//
//	{"tool":…,"version":…,"rev":…,"head":…,"config":…,"shallow":false,
//	 "files":[{"path":…,"kind":"progress|provenance","entries":[
//	   {"position":1,"line":…,"claim":{…,"timestamp":…},
//	    "recorded":{"commit":…,"origin":…,"date":…,"author_date":…,"author":…,"committer":…,
//	                "actor":…,"evidence":…,"signature":{…}},
//	    "evidence":[{"field":…,"ref":…,"commit":…,"status":…}],
//	    "renamed":{"commit":…,"from":…,"actor":…,"evidence":…}}]}],
//	 "findings":[{"rule":…,"severity":…,"path":…,"line":…,"message":…,"commit":…}],
//	 "summary":{"files":…,"entries":…,"commits":…,"errors":…,"warnings":…}}
func LedgerJSON(w io.Writer, r *LedgerReport) error {
	l := r.Ledger
	out := ledgerJSON{
		Tool: r.Tool, Version: r.Version, Rev: r.Rev, Head: l.Head, Config: r.Config, Shallow: l.Shallow,
		Files: make([]ledgerFileJSON, 0, len(l.Files)), Findings: make([]jsonFinding, 0, len(l.Findings)),
		Summary: ledgerSummaryJSON{Files: len(l.Files), Entries: l.Entries(), Commits: l.Commits, Errors: r.Errors(), Warnings: r.Warnings()},
	}
	for _, f := range l.Files {
		jf := ledgerFileJSON{Path: f.Path, Kind: string(f.Kind), Entries: make([]ledgerEntryJSON, 0, len(f.Entries))}
		for _, e := range f.Entries {
			jf.Entries = append(jf.Entries, entryJSON(f.Kind, e))
		}
		out.Files = append(out.Files, jf)
	}
	for _, f := range ledgerFindings(r) {
		out.Findings = append(out.Findings, jsonFinding{Rule: f.Rule, Severity: string(f.Severity), Path: f.Path, Line: f.Line, Message: f.Message, Commit: f.Commit})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("writing the JSON ledger: %w", err)
	}
	return nil
}

func entryJSON(kind ledger.Kind, e ledger.Entry) ledgerEntryJSON {
	c := e.Claim
	claim := ledgerClaimJSON{Timestamp: c.Timestamp}
	if kind == ledger.Progress {
		claim.TaskID, claim.Status = &c.TaskID, &c.Status
	} else {
		claim.Agent, claim.Action, claim.Message = &c.Agent, &c.Action, c.Message
	}
	rc := e.Commit
	rec := ledgerRecordedJSON{
		Commit: rc.Hash, Origin: string(e.Origin),
		Date: rc.Date.UTC().Format(time.RFC3339), AuthorDate: rc.AuthorDate.UTC().Format(time.RFC3339),
		Author: rc.Author.Name + " <" + rc.Author.Email + ">", Committer: rc.Committer.Name + " <" + rc.Committer.Email + ">",
	}
	if e.Origin != ledger.BeforeHistory {
		rec.Actor, rec.Evidence = string(rc.Verdict.Actor), rc.Verdict.Evidence
		if s := rc.Verdict.Signature; s != nil {
			rec.Signature = &jsonSignature{Commit: rc.Hash, Status: s.Verdict.String(), Format: string(s.Format), Signer: s.Signer, Key: s.Key, Entry: s.Entry, Detail: s.Detail}
		}
	}
	out := ledgerEntryJSON{Position: e.Position + 1, Line: e.Line, Claim: claim, Recorded: rec, Evidence: make([]ledgerEvidenceJSON, 0, len(e.Evidence))}
	for _, ev := range e.Evidence {
		out.Evidence = append(out.Evidence, ledgerEvidenceJSON{Field: ev.Field, Ref: ev.Ref, Commit: ev.Commit, Status: string(ev.Status)})
	}
	if r := e.Renamed; r != nil {
		out.Renamed = &ledgerRenamedJSON{Commit: r.Commit.Hash, From: r.From, Actor: string(r.Commit.Verdict.Actor), Evidence: r.Commit.Verdict.Evidence}
	}
	return out
}
