package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// GitHub writes GitHub Actions workflow commands: one ::error or ::warning
// annotation per finding, then a ::notice with the summary line.
func GitHub(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	for _, f := range r.Findings {
		props := "file=" + escapeProperty(f.Path)
		if f.Line > 0 {
			props += fmt.Sprintf(",line=%d", f.Line)
		}
		props += ",title=" + escapeProperty(f.Rule)
		msg := f.Message
		if f.Commit != "" {
			msg += " [commit " + short(f.Commit) + "]"
		}
		fmt.Fprintf(bw, "::%s %s::%s\n", f.Severity, props, escapeData(msg))
	}
	summary := Summary(r)
	if r.Range != "" {
		summary = "checked " + r.Range + ": " + summary
	}
	fmt.Fprintf(bw, "::notice::%s\n", escapeData(summary))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing GitHub workflow commands: %w", err)
	}
	return nil
}

// GitHubSummary writes a Markdown report for $GITHUB_STEP_SUMMARY: a
// heading, a table of the findings (or "No problems found") and the summary
// line.
func GitHubSummary(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "## small-hook\n\n")
	if r.Range != "" {
		fmt.Fprintf(bw, "Checked %s.\n\n", cell(r.Range))
	}
	if len(r.Findings) == 0 {
		fmt.Fprintf(bw, "No problems found.\n")
	} else {
		fmt.Fprintf(bw, "| rule | severity | location | message |\n| --- | --- | --- | --- |\n")
		for _, f := range r.Findings {
			loc := location(f)
			if f.Commit != "" {
				loc += " @ " + short(f.Commit)
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", cell(f.Rule), f.Severity, cell(loc), cell(f.Message))
		}
	}
	fmt.Fprintf(bw, "\n%s\n", Summary(r))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the GitHub step summary: %w", err)
	}
	return nil
}

// escapeData escapes the message of a workflow command.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value of a workflow command.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// cell makes text safe inside a Markdown table cell: pipes are escaped and
// line breaks, which would end the row, become spaces.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\r\n", " ", "\r", " ", "\n", " ").Replace(s)
}
