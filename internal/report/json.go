package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// jsonReport is the JSON output contract; field order is part of it.
type jsonReport struct {
	Tool     string        `json:"tool"`
	Version  string        `json:"version"`
	Mode     string        `json:"mode"`
	Findings []jsonFinding `json:"findings"`
	Summary  jsonSummary   `json:"summary"`
	// Signatures came after the first release: the contract only grows.
	Signatures []jsonSignature `json:"signatures,omitempty"`
	// Notes say what is not a finding, e.g. that a staged policy change
	// applies from the next commit.
	Notes []string `json:"notes,omitempty"`
	// Reader says which reader served the run: "fast" or "git".
	Reader string `json:"reader,omitempty"`
}

// jsonSignature is one commit's signature status.
type jsonSignature struct {
	Commit string `json:"commit"`
	Status string `json:"status"`
	Format string `json:"format"`
	Signer string `json:"signer,omitempty"`
	Key    string `json:"key,omitempty"`
	Entry  string `json:"entry,omitempty"`
	Detail string `json:"detail,omitempty"`
}

// jsonFinding is one finding of the JSON contract; it is declared here, not
// taken from rules.Finding, so that the contract cannot change by accident.
type jsonFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Message  string `json:"message"`
	Commit   string `json:"commit,omitempty"`
	// Hint came after the first release: why the rule holds and how to
	// fix the finding (the message says what is wrong).
	Hint string `json:"hint,omitempty"`
}

type jsonSummary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Files    int `json:"files"`
	Commits  int `json:"commits"`
}

// JSON writes the result as one JSON document:
//
//	{"tool":…,"version":…,"mode":"staged|range|tree",
//	 "findings":[{"rule":…,"severity":…,"path":…,"line":…,"message":…,"commit":…,"hint":…}],
//	 "summary":{"errors":…,"warnings":…,"files":…,"commits":…},
//	 "signatures":[{"commit":…,"status":…,"format":…,"signer":…,"key":…,"entry":…,"detail":…}],
//	 "notes":[…],
//	 "reader":"fast|git"}
//
// findings is [] when there are none; commit appears only in range mode,
// hint only when the rule gives one; signatures, one per commit checked,
// only in range mode when the configuration has a signatures section
// (signer, key, entry and detail only when known); notes only when there
// are some; reader names what read the repository (see Result.Reader).
func JSON(w io.Writer, r *Result) error {
	out := jsonReport{
		Tool: r.Tool, Version: r.Version, Mode: r.Mode, Reader: r.Reader,
		Findings: make([]jsonFinding, 0, len(r.Findings)),
		Summary:  jsonSummary{Errors: r.Errors(), Warnings: r.Warnings(), Files: r.Files, Commits: r.Commits},
		Notes:    r.Notes,
	}
	for _, f := range ordered(r) {
		out.Findings = append(out.Findings, jsonFinding{
			Rule: f.Rule, Severity: string(f.Severity), Path: f.Path, Line: f.Line, Message: f.Message, Commit: f.Commit, Hint: f.Hint,
		})
	}
	for _, sig := range r.Signatures {
		out.Signatures = append(out.Signatures, jsonSignature(sig))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("writing the JSON report: %w", err)
	}
	return nil
}
