package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/small-hook/small-hook/internal/words"
)

// GitHub writes GitHub Actions workflow commands: one ::error or ::warning
// annotation per finding, then, unless the result is quiet, a ::notice with
// the summary line.
func GitHub(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	for _, f := range ordered(r) {
		props := "file=" + escapeProperty(f.Path)
		if f.Line > 0 {
			props += fmt.Sprintf(",line=%d", f.Line)
		}
		props += ",title=" + escapeProperty(Printable(f.Rule))
		msg := f.Text()
		if f.Commit != "" {
			msg += " [commit " + words.ShortID(f.Commit) + "]"
		}
		fmt.Fprintf(bw, "::%s %s::%s\n", f.Severity, props, escapeData(annotationText(msg)))
	}
	if !r.Quiet {
		for _, n := range r.Notes {
			fmt.Fprintf(bw, "::notice::%s\n", escapeData(annotationText(n)))
		}
		summary := Summary(r)
		if r.Range != "" {
			summary = "checked " + r.Range + ": " + summary
		}
		fmt.Fprintf(bw, "::notice::%s\n", escapeData(annotationText(summary)))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing GitHub workflow commands: %w", err)
	}
	return nil
}

// GitHubFailure writes the ::error annotation of a check that could not
// run (exit code 2): tool names the program, reason says why. The
// annotation has no file and no title, so that it is told apart from the
// findings of a check that ran.
func GitHubFailure(w io.Writer, tool, reason string) error {
	msg := tool + " could not check (exit code 2): " + reason
	if _, err := fmt.Fprintf(w, "::error::%s\n", escapeData(annotationText(msg))); err != nil {
		return fmt.Errorf("writing the GitHub failure annotation: %w", err)
	}
	return nil
}

// GitHubSummary writes a Markdown report for $GITHUB_STEP_SUMMARY: a
// heading, a table of the findings (or "No problems found") and the summary
// line. Every text that comes from the repository (paths, rule IDs,
// messages, revisions) is written as a code span, so that nothing a
// committer controls becomes a link, an image, HTML or formatting.
func GitHubSummary(w io.Writer, r *Result) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "## %s\n\n", r.Tool)
	if r.Range != "" {
		fmt.Fprintf(bw, "Checked %s.\n\n", code(r.Range))
	}
	if len(r.Findings) == 0 {
		fmt.Fprintf(bw, "No problems found.\n")
	} else {
		fmt.Fprintf(bw, "| rule | severity | location | message |\n| --- | --- | --- | --- |\n")
		for _, f := range ordered(r) {
			loc := cell(location(f))
			if f.Commit != "" {
				loc += " @ " + cell(words.ShortID(f.Commit))
			}
			fmt.Fprintf(bw, "| %s | %s | %s | %s |\n", cell(f.Rule), f.Severity, loc, cell(f.Message))
		}
		if h := hints(r.Findings); len(h) > 0 {
			fmt.Fprintf(bw, "\nHow to fix:\n\n")
			for _, x := range h {
				fmt.Fprintf(bw, "- %s: %s\n", code(x.rule), code(x.hint))
			}
		}
	}
	fmt.Fprintf(bw, "\n%s\n", Summary(r))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the GitHub step summary: %w", err)
	}
	return nil
}

// GitHubFailureSummary writes the $GITHUB_STEP_SUMMARY section of a check
// that could not run (exit code 2): tool names the program, reason says
// why.
func GitHubFailureSummary(w io.Writer, tool, reason string) error {
	_, err := fmt.Fprintf(w, "## %s\n\n**The check could not run** (exit code 2), so nothing was checked:\n\n%s\n",
		tool, code(reason))
	if err != nil {
		return fmt.Errorf("writing the GitHub step summary: %w", err)
	}
	return nil
}

// annotationText keeps line breaks (which escapeData encodes: an
// annotation may span lines) and replaces every other control character,
// and the characters that reorder text for display, with a space.
func annotationText(s string) string {
	return strings.Map(func(r rune) rune {
		if r != '\n' && (unicode.IsControl(r) || isBidiControl(r)) {
			return ' '
		}
		return r
	}, s)
}

// escapeData escapes the message of a workflow command.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a property value of a workflow command.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
