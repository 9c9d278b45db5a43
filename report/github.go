package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// GitHub writes GitHub Actions workflow commands: one ::error or ::warning
// annotation per finding and a ::notice with the summary.
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
	fmt.Fprintf(bw, "::notice title=small-hook::%s\n", escapeData(summary))
	return bw.Flush()
}

// GitHubSummary writes a Markdown report for $GITHUB_STEP_SUMMARY.
func GitHubSummary(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "## small-hook\n\n")
	if r.Range != "" {
		fmt.Fprintf(bw, "Checked %s.\n\n", cell(r.Range))
	}
	if len(r.Findings) == 0 {
		fmt.Fprintf(bw, "No problems found: %s.\n", Summary(r))
		return bw.Flush()
	}
	fmt.Fprintf(bw, "| severity | rule | location | message |\n| --- | --- | --- | --- |\n")
	for _, f := range r.Findings {
		loc := f.Path
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.Path, f.Line)
		}
		if f.Commit != "" {
			loc += " @ " + short(f.Commit)
		}
		fmt.Fprintf(bw, "| %s | `%s` | `%s` | %s |\n", f.Severity, f.Rule, cell(loc), cell(f.Message))
	}
	fmt.Fprintf(bw, "\n%s\n", Summary(r))
	return bw.Flush()
}

// escapeData escapes a workflow command's message.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\r", " ", "\n", " ").Replace(s)
}
