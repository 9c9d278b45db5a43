package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/small-hook/small-hook/internal/words"
)

// LedgerMarkdown writes the ledger as Markdown for a pull request's step
// summary ($GITHUB_STEP_SUMMARY): a heading, the summary, a table of the
// findings, and for each file a collapsed table of its entries. Every
// value from the repository is a code span, so nothing in it is read as
// Markdown, HTML or a mention.
func LedgerMarkdown(w io.Writer, r *LedgerReport) error {
	bw := bufio.NewWriter(w)
	l := r.Ledger
	fmt.Fprintf(bw, "## %s log\n\n", r.Tool)
	fmt.Fprintf(bw, "Ledger of %s (%s), configuration from %s: %s.\n\n", code(words.ShortID(l.Head)), code(r.Rev), code(r.Config), LedgerSummary(r))
	if findings := ledgerFindings(r); len(findings) > 0 {
		fmt.Fprintf(bw, "| rule | severity | location | message |\n| --- | --- | --- | --- |\n")
		for _, f := range findings {
			fmt.Fprintf(bw, "| %s | %s | %s @ %s | %s |\n", cell(f.Rule), f.Severity, cell(location(f)), cell(words.ShortID(f.Commit)), cell(f.Message))
		}
		fmt.Fprintln(bw)
	}
	for _, f := range l.Files {
		fmt.Fprintf(bw, "<details><summary>%s: %s</summary>\n\n", f.Kind, words.Count(len(f.Entries), "entry", "entries"))
		fmt.Fprintf(bw, "%s\n\n", code(f.Path))
		fmt.Fprintf(bw, "| # | commit | date | actor | claim | timestamp | note |\n| ---: | --- | --- | --- | --- | --- | --- |\n")
		for _, e := range f.Entries {
			note := entryNote(e)
			if s := signatureText(e); s != "" {
				note = "signature " + s + " " + note
			}
			fmt.Fprintf(bw, "| %d | %s | %s | %s | %s | %s | %s |\n", e.Position+1, cell(words.ShortID(e.Commit.Hash)), e.Commit.Date.UTC().Format("2006-01-02"),
				actorText(e), cell(claimText(f.Kind, e.Claim)), cell(e.Claim.Timestamp), note)
		}
		fmt.Fprintf(bw, "\n</details>\n\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the Markdown ledger: %w", err)
	}
	return nil
}
