package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/small-hook/small-hook/report"
)

// outputFormat is one format a check can write.
type outputFormat struct {
	name string
	// write writes a result; colour says the text may use ANSI colours.
	write func(w io.Writer, r *report.Result, colour bool) error
}

// outputFormats lists every format: adding one adds a row here, and the
// flags, their help and their messages follow.
func outputFormats() []outputFormat {
	return []outputFormat{
		{"text", report.Text},
		{"json", func(w io.Writer, r *report.Result, _ bool) error { return report.JSON(w, r) }},
		{"sarif", func(w io.Writer, r *report.Result, _ bool) error { return report.SARIF(w, r) }},
		{"github", func(w io.Writer, r *report.Result, _ bool) error { return report.GitHub(w, r) }},
	}
}

// formatNamed returns the format called name.
func formatNamed(name string) (outputFormat, bool) {
	for _, f := range outputFormats() {
		if f.name == name {
			return f, true
		}
	}
	return outputFormat{}, false
}

// formatNames lists the formats' names, joined with sep.
func formatNames(sep string) string {
	var names []string
	for _, f := range outputFormats() {
		names = append(names, f.name)
	}
	return strings.Join(names, sep)
}

// parseOutput splits a --output value FORMAT=FILE.
func parseOutput(s string) (format, file string, err error) {
	format, file, ok := strings.Cut(s, "=")
	if !ok || file == "" {
		return "", "", &usageError{fmt.Sprintf("--output %q: want FORMAT=FILE, e.g. sarif=results.sarif", s)}
	}
	if _, known := formatNamed(format); !known {
		return "", "", &usageError{fmt.Sprintf("--output %q: unknown format %q (%s)", s, format, formatNames(", "))}
	}
	return format, file, nil
}

// stage names where the check runs (see checkModes).
func (c *checkCmd) stage() string { return c.mode().stage }

// configName names a policy file as the check reads it (see trustedRev):
// "the .small-hook.yml of HEAD" when it comes from a revision, "the staged
// .small-hook.yml" when it comes from the index (the file on disk may
// differ).
func (t target) configName(file string) string {
	if rev := trustedRev(t); rev != "" {
		return "the " + file + " of " + rev
	}
	return "the staged " + file
}

// trustedName names where the check reads its policy files from: a
// revision, or the index.
func (t target) trustedName() string {
	if rev := trustedRev(t); rev != "" {
		return rev
	}
	return "the index"
}

// write prints the result in the main format and in every --output file,
// and appends the Markdown summary to $GITHUB_STEP_SUMMARY for --format
// github. The text on stdout names the stage; with --quiet, and in a hook
// stage whose change touches no governed file, it holds the findings only.
func (c *checkCmd) write(res *report.Result, e *env) error {
	mode := c.mode()
	res.Stage = mode.stage
	shown := *res
	shown.Quiet = c.Quiet || (mode.hook && res.Files == 0 && len(res.Findings) == 0)
	main, _ := formatNamed(c.Format)
	if err := main.write(e.stdout, &shown, e.colour); err != nil {
		return fmt.Errorf("writing %s output: %w", c.Format, err)
	}
	for _, o := range c.Output {
		format, file, _ := parseOutput(o)
		f, _ := formatNamed(format)
		if err := writeFile(file, func(w io.Writer) error { return f.write(w, res, false) }); err != nil {
			return err
		}
	}
	if c.Format == "github" {
		return appendStepSummary(e, func(w io.Writer) error { return report.GitHubSummary(w, res) })
	}
	return nil
}

// writeFailure reports a check that could not run (exit code 2) where
// --format github readers look: an ::error annotation on stdout and a
// section in $GITHUB_STEP_SUMMARY.
func writeFailure(e *env, reason string) error {
	reason = e.out.text(reason)
	if err := report.GitHubFailure(e.stdout, "small-hook", reason); err != nil {
		return err
	}
	return appendStepSummary(e, func(w io.Writer) error { return report.GitHubFailureSummary(w, "small-hook", reason) })
}

// appendStepSummary appends to $GITHUB_STEP_SUMMARY when it is set.
func appendStepSummary(e *env, write func(io.Writer) error) error {
	summary := e.getenv("GITHUB_STEP_SUMMARY")
	if summary == "" {
		return nil
	}
	f, err := os.OpenFile(summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("opening $GITHUB_STEP_SUMMARY: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing $GITHUB_STEP_SUMMARY: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing $GITHUB_STEP_SUMMARY: %w", err)
	}
	return nil
}

func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--output: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}
