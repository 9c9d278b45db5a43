package report

import (
	"bufio"
	"fmt"
	"io"

	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
)

// ANSI colours, used only when the caller says the output is a terminal.
const (
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

// Text writes one short finding per line, `path:line: severity rule:
// message` (range mode adds the commit), then, unless the result is quiet,
// each rule's hints once (`rule: why it holds; how to fix`) after a blank
// line, the notes, the range checked, if any, and a summary line that
// names the tool and the stage: `small-hook (pre-commit stage): 1 error in
// 1 file (2 files checked)`. color adds ANSI colours; the caller decides
// whether the output is a terminal that wants them.
func Text(w io.Writer, r *Result, color bool) error {
	bw := bufio.NewWriter(w)
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ansiReset
	}
	for _, f := range ordered(r) {
		sev := paint(ansiYellow, string(f.Severity))
		if f.Severity == rules.Error {
			sev = paint(ansiRed, string(f.Severity))
		}
		fmt.Fprintf(bw, "%s: %s %s: %s", paint(ansiBold, Printable(location(f))), sev, Printable(f.Rule), Printable(f.Message))
		if f.Commit != "" {
			fmt.Fprintf(bw, " [commit %s]", words.ShortID(f.Commit))
		}
		fmt.Fprintln(bw)
	}
	if !r.Quiet {
		if h := hints(r.Findings); len(h) > 0 {
			fmt.Fprintln(bw)
			for _, x := range h {
				fmt.Fprintf(bw, "%s: %s\n", paint(ansiBold, Printable(x.rule)), Printable(x.hint))
			}
		}
		for _, n := range r.Notes {
			fmt.Fprintf(bw, "note: %s\n", Printable(n))
		}
		if r.Range != "" {
			fmt.Fprintf(bw, "checked %s\n", Printable(r.Range))
		}
		fmt.Fprintf(bw, "%s: %s\n", heading(r), Summary(r))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the text report: %w", err)
	}
	return nil
}
