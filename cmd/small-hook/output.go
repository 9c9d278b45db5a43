package main

import (
	"fmt"
	"io"
	"os"
	"strings"

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

// write prints the result in the main format and in every --output file,
// and appends the Markdown summary to $GITHUB_STEP_SUMMARY for --format
// github.
func (c *checkCmd) write(res *report.Result, e *env) error {
	var err error
	if c.Format == "text" {
		err = report.Text(e.stdout, res, e.colour)
	} else {
		err = writers()[c.Format](e.stdout, res)
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
	if summary := e.getenv("GITHUB_STEP_SUMMARY"); summary != "" && c.Format == "github" {
		f, err := os.OpenFile(summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return fmt.Errorf("opening $GITHUB_STEP_SUMMARY: %w", err)
		}
		defer f.Close()
		if err := report.GitHubSummary(f, res); err != nil {
			return fmt.Errorf("writing $GITHUB_STEP_SUMMARY: %w", err)
		}
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
