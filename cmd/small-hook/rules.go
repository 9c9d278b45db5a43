package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
)

// rulesCmd is `small-hook rules`.
type rulesCmd struct {
	Format string `help:"Output format: text, json, or markdown (the page docs/rules.md)." enum:"text,json,markdown" default:"text"`
	ID     string `arg:"" optional:"" name:"rule" help:"Print only this rule, e.g. small/append-only (a finding names it); a member of a family, e.g. secrets/aws-access-token, prints its family."`
}

type ruleDoc struct {
	ID string `json:"id"`
	// Severity is the severity of the rule's findings when it runs.
	Severity string `json:"severity"`
	// Default is "error", "warning" or "off": what the rule does when
	// .small-hook.yml says nothing about it.
	Default string `json:"default"`
	// Family is set for a rule that reports its findings as ID/<name>.
	Family bool `json:"family,omitempty"`
	// Continuity is set for a rule that also judges a tip comparison (see
	// rules.Rule.Continuity).
	Continuity bool `json:"continuity,omitempty"`
	// Ledger is set for a rule that only `small-hook log` applies (see
	// rules.Rule.Ledger).
	Ledger    bool   `json:"ledger,omitempty"`
	Title     string `json:"title"`
	Doc       string `json:"doc"`
	Configure string `json:"configure"`
}

// rulesPreamble explains how the rules are configured.
const rulesPreamble = `Every rule small-hook runs, with its default severity. Only errors fail a check.
Change a rule in ` + config.FileName + ` at the repository root:
    rules:
      <rule id>: off | warning | error    # off: the rule does not run
    exclude:                              # paths no protocol rule governs
      - spec/small/v0.1/examples/**       # (secret detection still scans them)
A family such as secrets is set as a whole (secrets: warning) or by member
(secrets/generic-api-key: off); a member's setting wins over its family's.`

func (c *rulesCmd) run(e *env) (int, error) {
	all := registry.All()
	if c.ID != "" {
		r := rules.Lookup(all, c.ID)
		if r == nil {
			msg := fmt.Sprintf("%q is not a rule small-hook knows", c.ID)
			if s := rules.Suggest(all, c.ID); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			}
			return exitFailure, &usageError{msg + " (`small-hook rules` lists every rule)"}
		}
		all = []*rules.Rule{r}
	}
	var docs []ruleDoc
	for _, r := range all {
		title, rest, _ := strings.Cut(strings.TrimSpace(r.Doc), "\n")
		docs = append(docs, ruleDoc{
			ID: r.ID, Severity: string(r.Severity), Default: defaultSeverity(r), Family: isFamily(r),
			Continuity: r.Continuity, Ledger: r.Ledger, Title: title, Doc: strings.TrimSpace(rest), Configure: configureHint(r),
		})
	}
	if c.Format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(docs); err != nil {
			return exitFailure, fmt.Errorf("writing rules: %w", err)
		}
		return exitOK, nil
	}
	if c.Format == "markdown" {
		if err := writeRulesMarkdown(e.stdout, docs, c.ID == ""); err != nil {
			return exitFailure, err
		}
		return exitOK, nil
	}
	if c.ID == "" {
		fmt.Fprintln(e.stdout, rulesPreamble)
	}
	for i, d := range docs {
		if c.ID == "" || i > 0 {
			fmt.Fprintln(e.stdout)
		}
		if c.ID != "" && c.ID != d.ID {
			fmt.Fprintf(e.stdout, "%s is a member of the family %s:\n", c.ID, d.ID)
		}
		fmt.Fprintf(e.stdout, "%s (%s): %s\n", d.ID, d.Default, d.Title)
		for _, line := range strings.Split(d.Doc, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				fmt.Fprintf(e.stdout, "    %s\n", line)
			}
		}
		fmt.Fprintf(e.stdout, "    %s\n", d.Configure)
	}
	return exitOK, nil
}

// isFamily reports a rule whose findings are reported as ID/<name>.
func isFamily(r *rules.Rule) bool { return !strings.Contains(r.ID, "/") }

// defaultSeverity is what the rule does without configuration.
func defaultSeverity(r *rules.Rule) string {
	if r.OffByDefault {
		return config.SeverityOff
	}
	return string(r.Severity)
}

// configureHint says what the rule does by default and how to change it.
func configureHint(r *rules.Rule) string {
	set := func(id string) string { return fmt.Sprintf("rules: {%s: off | warning | error}", id) }
	switch {
	case r.OffByDefault:
		return fmt.Sprintf("Default: off (its findings are %ss when turned on). Turn it on with rules: {%s: warning} or {%s: error}.", r.Severity, r.ID, r.ID)
	case isFamily(r):
		return fmt.Sprintf("Default: %s for every %s/<name>. Change the family with %s, one member with %s.", r.Severity, r.ID, set(r.ID), set(r.ID+"/<name>"))
	}
	return fmt.Sprintf("Default: %s. Change it with %s.", r.Severity, set(r.ID))
}
