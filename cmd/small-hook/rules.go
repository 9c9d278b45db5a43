package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/rules/registry"
)

// rulesCmd is `small-hook rules`.
type rulesCmd struct {
	Format string `help:"Output format: text or json." enum:"text,json" default:"text"`
}

type ruleDoc struct {
	ID       string `json:"id"`
	Severity string `json:"severity"`
	Title    string `json:"title"`
	Doc      string `json:"doc"`
}

func (c *rulesCmd) run(e *env) (int, error) {
	var docs []ruleDoc
	for _, r := range registry.All() {
		title, rest, _ := strings.Cut(strings.TrimSpace(r.Doc), "\n")
		docs = append(docs, ruleDoc{ID: r.ID, Severity: string(r.Severity), Title: title, Doc: strings.TrimSpace(rest)})
	}
	if c.Format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(docs); err != nil {
			return exitFailure, fmt.Errorf("writing rules: %w", err)
		}
		return exitOK, nil
	}
	for i, d := range docs {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprintf(e.stdout, "%s (%s): %s\n", d.ID, d.Severity, d.Title)
		for _, line := range strings.Split(d.Doc, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				fmt.Fprintf(e.stdout, "    %s\n", line)
			}
		}
	}
	return exitOK, nil
}
