package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"

	"github.com/small-hook/small-hook/rules"
)

// ANSI colours, used only when the caller says the output is a terminal.
const (
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

// Text writes one finding per line, `path:line: severity rule: message`
// (range mode adds the commit), then the range checked, if any, and a
// one-line summary. color adds ANSI colours; the caller decides whether the
// output is a terminal that wants them.
func Text(w io.Writer, r *Result, color bool) error {
	bw := bufio.NewWriter(w)
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ansiReset
	}
	for _, f := range r.Findings {
		sev := paint(ansiYellow, string(f.Severity))
		if f.Severity == rules.Error {
			sev = paint(ansiRed, string(f.Severity))
		}
		fmt.Fprintf(bw, "%s: %s %s: %s", paint(ansiBold, oneLine(location(f))), sev, f.Rule, oneLine(f.Message))
		if f.Commit != "" {
			fmt.Fprintf(bw, " [commit %s]", short(f.Commit))
		}
		fmt.Fprintln(bw)
	}
	if r.Range != "" {
		fmt.Fprintf(bw, "checked %s\n", oneLine(r.Range))
	}
	fmt.Fprintln(bw, Summary(r))
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing the text report: %w", err)
	}
	return nil
}

// oneLine replaces control characters (line breaks, tabs, terminal escape
// sequences from file names or content) with spaces, so that each finding
// stays on one line and cannot drive the terminal.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
