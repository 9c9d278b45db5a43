package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
)

// LedgerText writes the ledger as text: for each file a heading, then one
// line per entry, `position commit date actor claim timestamp [note]`,
// like `git log --oneline`; then the findings, one per line as `check`
// prints them, and a summary line. color adds ANSI colours.
func LedgerText(w io.Writer, r *LedgerReport, color bool) error {
	bw := bufio.NewWriter(w)
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ansiReset
	}
	for i, f := range r.Ledger.Files {
		if i > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "%s (%s, %s)\n", paint(ansiBold, Printable(f.Path)), f.Kind, words.Count(len(f.Entries), "entry", "entries"))
		width := len(fmt.Sprint(len(f.Entries)))
		for _, e := range f.Entries {
			cols := []string{
				fmt.Sprintf("%*d", width, e.Position+1),
				words.ShortID(e.Commit.Hash),
				e.Commit.Date.UTC().Format("2006-01-02"),
				fmt.Sprintf("%-7s", actorText(e)),
				Printable(claimText(f.Kind, e.Claim)),
				Printable(orDash(e.Claim.Timestamp)),
			}
			if s := signatureText(e); s != "" {
				cols = append(cols, "signature "+s)
			}
			if n := entryNote(e); n != "" {
				cols = append(cols, "["+n+"]")
			}
			fmt.Fprintf(bw, "  %s\n", strings.Join(cols, "  "))
		}
	}
	if len(r.Ledger.Files) > 0 {
		fmt.Fprintln(bw)
	}
	for _, f := range ledgerFindings(r) {
		sev := paint(ansiYellow, string(f.Severity))
		if f.Severity == rules.Error {
			sev = paint(ansiRed, string(f.Severity))
		}
		fmt.Fprintf(bw, "%s: %s %s: %s [commit %s]\n", paint(ansiBold, Printable(location(f))), sev, Printable(f.Rule), Printable(f.Message), words.ShortID(f.Commit))
	}
	fmt.Fprintf(bw, "ledger of %s (%s), configuration from %s\n", words.ShortID(r.Ledger.Head), Printable(r.Rev), Printable(r.Config))
	fmt.Fprintf(bw, "%s (log): %s\n", r.Tool, LedgerSummary(r))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the ledger: %w", err)
	}
	return nil
}
