package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/small-hook/small-hook/internal/attribution"
	"github.com/small-hook/small-hook/internal/report"
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

// write prints the result in the main format and in every --output file,
// and appends the Markdown summary to $GITHUB_STEP_SUMMARY for --format
// github. The text on stdout names the stage; with --quiet, and in a hook
// stage whose change touches no governed file and that has nothing to
// note, it holds the findings only; it is left out where the commit-msg
// stage will say the same (see leftToCommitMsg).
func (c *checkCmd) write(res *report.Result, e *env, outs []*outputFile, setup func() *attribution.Setup) error {
	mode := c.mode()
	res.Stage = mode.stage
	shown := *res
	shown.Quiet = c.Quiet || (mode.hook && res.Files == 0 && len(res.Findings) == 0 && len(res.Notes) == 0)
	if main, _ := formatNamed(c.Format); !c.leftToCommitMsg(e, &shown, setup) {
		if err := main.write(e.stdout, &shown, e.colour); err != nil {
			return fmt.Errorf("writing %s output: %w", c.Format, err)
		}
	}
	for _, o := range outs {
		if err := o.write(res); err != nil {
			return err
		}
	}
	if c.Format == "github" {
		return appendStepSummary(e, func(w io.Writer) error { return report.GitHubSummary(w, res) })
	}
	return nil
}

// leftToCommitMsg reports whether the pre-commit stage of a commit prints
// nothing of a result that would print something: the commit passes it,
// and git's commit-msg hook will run small-hook's check of the same staged
// change with the message, whose text holds the same findings and the one
// summary line of the commit. git tells its hooks nothing of
// `git commit -q`, so a commit prints that one line even then. setup is
// asked only when there is something to print.
func (c *checkCmd) leftToCommitMsg(e *env, shown *report.Result, setup func() *attribution.Setup) bool {
	if c.mode().flag != "" || c.Format != "text" || len(c.Files) > 0 || shown.Errors() > 0 ||
		(shown.Quiet && len(shown.Findings) == 0) || e.getenv("GIT_INDEX_FILE") == "" {
		return false
	}
	s := setup()
	return s != nil && s.CommitMsg
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

// outputFile is a file --output names, opened before the check runs: a
// file that cannot be written stops the check at once (exit 2), not after
// the findings were printed.
type outputFile struct {
	format outputFormat
	path   string
	f      *os.File
	// created says the check created the file; it is removed when the
	// check writes nothing into it. A file that was there is only
	// truncated when the result is written.
	created, written bool
}

// openOutputs opens every --output file for writing, creating it when
// needed, and leaves what a file holds until the result is written.
func (c *checkCmd) openOutputs(e *env) ([]*outputFile, error) {
	var outs []*outputFile
	for _, o := range c.Output {
		name, file, err := parseOutput(o)
		if err != nil {
			closeOutputs(outs)
			return nil, err
		}
		format, _ := formatNamed(name)
		path := absDir(e, file)
		_, statErr := os.Stat(path)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			closeOutputs(outs)
			return nil, fmt.Errorf("--output %s: %w", o, err)
		}
		outs = append(outs, &outputFile{format: format, path: path, f: f, created: errors.Is(statErr, fs.ErrNotExist)})
	}
	return outs, nil
}

// write replaces the file's content with the result.
func (o *outputFile) write(res *report.Result) error {
	o.written = true
	if err := o.f.Truncate(0); err != nil {
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	bw := bufio.NewWriter(o.f)
	if err := o.format.write(bw, res, false); err != nil {
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", o.path, err)
	}
	return nil
}

// closeOutputs closes the files and removes those the check created but
// did not write (it could not run).
func closeOutputs(outs []*outputFile) error {
	var errs []error
	for _, o := range outs {
		if err := o.f.Close(); err != nil && o.written {
			errs = append(errs, fmt.Errorf("writing %s: %w", o.path, err))
		}
		if o.created && !o.written {
			os.Remove(o.path)
		}
	}
	return errors.Join(errs...)
}
