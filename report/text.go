package report

import (
	"bufio"
	"fmt"
	"io"

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
// (range mode adds the commit), then a one-line summary.
func Text(w io.Writer, r *Result, color bool) error {
	bw := bufio.NewWriter(w)
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + ansiReset
	}
	for _, f := range r.Findings {
		loc := f.Path
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.Path, f.Line)
		}
		sev := paint(ansiYellow, string(f.Severity))
		if f.Severity == rules.Error {
			sev = paint(ansiRed, string(f.Severity))
		}
		fmt.Fprintf(bw, "%s: %s %s: %s", paint(ansiBold, loc), sev, f.Rule, f.Message)
		if f.Commit != "" {
			fmt.Fprintf(bw, " [commit %s]", short(f.Commit))
		}
		fmt.Fprintln(bw)
	}
	if r.Range != "" {
		fmt.Fprintf(bw, "checked %s\n", r.Range)
	}
	fmt.Fprintln(bw, Summary(r))
	return bw.Flush()
}

// Summary is the one-line summary of a result.
func Summary(r *Result) string {
	files := plural(r.Files, "file", "files")
	var s string
	if errs, warns := r.Errors(), r.Warnings(); errs+warns == 0 {
		s = "no problems in " + files
	} else {
		s = fmt.Sprintf("%s, %s in %s", plural(errs, "error", "errors"), plural(warns, "warning", "warnings"), files)
	}
	if r.Mode == "range" {
		s += ", " + plural(r.Commits, "commit", "commits")
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}
