package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/report"
)

// parseOutput splits a --output value FORMAT=FILE.
func parseOutput(s string) (format, file string, err error) {
	format, file, ok := strings.Cut(s, "=")
	if !ok || file == "" {
		return "", "", &usageError{fmt.Sprintf("--output %q: want FORMAT=FILE, e.g. sarif=results.sarif", s)}
	}
	if _, known := writers()[format]; !known {
		return "", "", &usageError{fmt.Sprintf("--output %q: unknown format %q (text, json, sarif, github)", s, format)}
	}
	return format, file, nil
}

type writer func(io.Writer, *report.Result) error

func writers() map[string]writer {
	return map[string]writer{
		"text":   func(w io.Writer, r *report.Result) error { return report.Text(w, r, false) },
		"json":   report.JSON,
		"sarif":  report.SARIF,
		"github": report.GitHub,
	}
}

// Where a check runs, named in its summary line and its error lines.
const (
	stagePreCommit = "pre-commit stage"
	stageCommitMsg = "commit-msg stage"
	stageRange     = "pre-push/CI check"
	stageTree      = "whole-tree check"
	stagePrePush   = "pre-push hook"
	stageReceive   = "pre-receive hook"
)

// stage names where a check with these flags runs: the staged modes are
// the pre-commit and commit-msg hook stages, a range is what the pre-push
// hook and CI check, --all looks at a whole tree.
func (c *checkCmd) stage() string {
	switch {
	case c.PreReceive:
		return stageReceive
	case c.PrePush != "":
		return stagePrePush
	case c.CommitMsg != "":
		return stageCommitMsg
	case c.Base != "", c.Previous != "", c.History, c.CI:
		return stageRange
	case c.All:
		return stageTree
	}
	return stagePreCommit
}

// configName names a configuration file as the check reads it: "the staged
// .small-hook.yml" when it comes from the index (the file on disk may
// differ), "the .small-hook.yml of REV" when it comes from a revision.
func (t target) configName(file string) string {
	switch {
	case t.policy != "":
		return "the " + file + " of " + t.policyFrom + " (" + short(t.policy) + ")"
	case t.mode == changes.ModeRange:
		return "the " + file + " of " + t.base
	case t.rev != "":
		return "the " + file + " of " + t.rev
	}
	return "the staged " + file
}

// write prints the result in the main format and in every --output file,
// and appends the Markdown summary to $GITHUB_STEP_SUMMARY for --format
// github. The text on stdout names the stage; with --quiet, and in a hook
// stage whose change touches no governed file, it holds the findings only.
func (c *checkCmd) write(res *report.Result, e *env) error {
	res.Stage = c.stage()
	shown := *res
	hookStage := shown.Stage == stagePreCommit || shown.Stage == stageCommitMsg || shown.Stage == stagePrePush || shown.Stage == stageReceive
	shown.Quiet = c.Quiet || (hookStage && res.Files == 0 && len(res.Findings) == 0)
	var err error
	if c.Format == "text" {
		err = report.Text(e.stdout, &shown, e.colour)
	} else {
		err = writers()[c.Format](e.stdout, &shown)
	}
	if err != nil {
		return fmt.Errorf("writing %s output: %w", c.Format, err)
	}
	for _, o := range c.Output {
		format, file, _ := parseOutput(o)
		if err := writeFile(file, func(w io.Writer) error { return writers()[format](w, res) }); err != nil {
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
