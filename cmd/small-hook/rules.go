package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/rules/registry"
)

// rulesCmd is `small-hook rules`.
type rulesCmd struct {
	Format string `help:"Output format: text, json, or markdown (the page docs/rules.md, with every default)." enum:"text,json,markdown" default:"text"`
	Repo   string `help:"The repository whose .small-hook.yml (of HEAD: what the next commit is judged by) sets the severities shown; outside a repository, the defaults." default:"." placeholder:"DIR"`
	ID     string `arg:"" optional:"" name:"rule" help:"Print only this rule, e.g. small/append-only (a finding names it); a member of a family, e.g. secrets/aws-access-token, prints its family; a family name, e.g. attribution, prints its rules."`
}

type ruleDoc struct {
	ID string `json:"id"`
	// Severity is the severity of the rule's findings when it runs: the one
	// the configuration sets, else the rule's own.
	Severity string `json:"severity"`
	// Default is "error", "warning" or "off": what the rule does when
	// .small-hook.yml says nothing about it.
	Default string `json:"default"`
	// Configured is what .small-hook.yml sets for the rule ("off",
	// "warning" or "error"), and ConfiguredIn names that file; both empty
	// when it sets nothing.
	Configured   string `json:"configured,omitempty"`
	ConfiguredIn string `json:"configuredIn,omitempty"`
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
const rulesPreamble = `Every rule small-hook runs, with its default severity, or the one the .small-hook.yml
of HEAD sets (what the next commit is judged by) and its default. Only errors fail a check.
Change a rule in ` + config.FileName + ` at the repository root:
    rules:
      <rule id>: off | warning | error    # off: the rule does not run
    exclude:                              # paths no protocol rule governs
      - spec/small/v0.1/examples/**       # (secret detection still scans them)
A family such as secrets is set as a whole (secrets: warning) or by member
(secrets/generic-api-key: off); a member's setting wins over its family's.`

func (c *rulesCmd) run(e *env) (int, error) {
	all, err := c.selected()
	if err != nil {
		return exitFailure, err
	}
	settings, source, err := c.settings(e)
	if err != nil {
		return exitFailure, err
	}
	var docs []ruleDoc
	for _, r := range all {
		docs = append(docs, newRuleDoc(r, r.ID, settings, source))
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
		if r := all[i]; c.ID != "" && c.ID != r.ID && strings.HasPrefix(c.ID, r.ID+"/") {
			own := ""
			if m := newRuleDoc(r, c.ID, settings, source); m.Configured != "" {
				own = " (" + m.setting() + ")"
			}
			fmt.Fprintf(e.stdout, "%s is a member of the family %s%s:\n", c.ID, d.ID, own)
		}
		fmt.Fprintf(e.stdout, "%s (%s): %s\n", d.ID, d.setting(), d.Title)
		for _, line := range strings.Split(d.Doc, "\n") {
			if line = strings.TrimSpace(line); line != "" {
				fmt.Fprintf(e.stdout, "    %s\n", line)
			}
		}
		fmt.Fprintf(e.stdout, "    %s\n", d.Configure)
	}
	return exitOK, nil
}

// selected returns the rules c.ID names: every rule when it names none; the
// rule it names (a member of a family, secrets/aws-access-token, names the
// family's rule); or every rule of the family it names (attribution, small).
// A name that is none of these is a usage error that suggests the closest.
func (c *rulesCmd) selected() ([]*rules.Rule, error) {
	all := registry.All()
	if c.ID == "" {
		return all, nil
	}
	if r := rules.Lookup(all, c.ID); r != nil {
		return []*rules.Rule{r}, nil
	}
	var family []*rules.Rule
	for _, r := range all {
		if familyOf(r.ID) == c.ID {
			family = append(family, r)
		}
	}
	if len(family) > 0 {
		return family, nil
	}
	msg := fmt.Sprintf("%q is not a rule small-hook knows", c.ID)
	if s := rules.Suggest(all, c.ID); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return nil, &usageError{msg + " (`small-hook rules` lists every rule)"}
}

// settings returns the rule settings of the configuration a commit in the
// repository is judged by, the .small-hook.yml of HEAD, and names that
// file; the defaults with --format markdown (the page of defaults),
// outside a repository and where HEAD has no such file. A file that
// cannot be read as a configuration is an error naming it.
func (c *rulesCmd) settings(e *env) (*rules.Settings, string, error) {
	cfg, source := config.Default(), ""
	if c.Format != "markdown" {
		if repo, err := gitdiff.Open(absDir(e, c.Repo), gitdiff.Options{Getenv: e.getenv}); err == nil {
			defer repo.Close()
			tgt := target{mode: changes.ModeStaged}
			blobs, err := readTrusted(repo, tgt, config.FileName)
			if err != nil {
				return nil, "", fmt.Errorf("reading %s from HEAD: %w", config.FileName, err)
			}
			if b := blobs[config.FileName]; b != nil {
				source = tgt.configName(config.FileName)
				if cfg, err = loadConfig(b.Data, source); err != nil {
					return nil, "", err
				}
			}
		}
	}
	s, err := rules.NewSettings(cfg, registry.All())
	return s, source, err
}

// newRuleDoc describes rule r, with what the configuration (settings, read
// from source) sets for the findings it reports under id.
func newRuleDoc(r *rules.Rule, id string, settings *rules.Settings, source string) ruleDoc {
	title, rest, _ := strings.Cut(strings.TrimSpace(r.Doc), "\n")
	d := ruleDoc{
		ID: r.ID, Severity: string(r.Severity), Default: defaultSeverity(r), Family: isFamily(r),
		Continuity: r.Continuity, Ledger: r.Ledger, Title: title, Doc: strings.TrimSpace(rest), Configure: configureHint(r),
	}
	if set, ok := settings.Setting(r, id); ok {
		d.Configured, d.ConfiguredIn = set, source
		if set != config.SeverityOff {
			d.Severity = set
		}
	}
	return d
}

// setting is how the text names what the rule does: its default, or what
// the configuration sets, where, and the default.
func (d ruleDoc) setting() string {
	if d.Configured == "" {
		return d.Default
	}
	return fmt.Sprintf("%s, as %s sets it; default %s", d.Configured, d.ConfiguredIn, d.Default)
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
