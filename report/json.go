package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/small-hook/small-hook/rules"
)

// jsonReport is the JSON output contract; field order is part of it.
type jsonReport struct {
	Tool     string          `json:"tool"`
	Version  string          `json:"version"`
	Mode     string          `json:"mode"`
	Findings []rules.Finding `json:"findings"`
	Summary  jsonSummary     `json:"summary"`
}

type jsonSummary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Files    int `json:"files"`
	Commits  int `json:"commits"`
}

// JSON writes the result as one JSON document (see README for the shape).
func JSON(w io.Writer, r *Result) error {
	out := jsonReport{
		Tool: r.Tool, Version: r.Version, Mode: r.Mode,
		Findings: r.Findings,
		Summary:  jsonSummary{Errors: r.Errors(), Warnings: r.Warnings(), Files: r.Files, Commits: r.Commits},
	}
	if out.Findings == nil {
		out.Findings = []rules.Finding{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("encoding JSON: %w", err)
	}
	return nil
}
