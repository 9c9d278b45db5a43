// Package report writes a check's findings in small-hook's output formats:
// one small file per format, all from the same Result.
package report

import (
	"fmt"

	"github.com/small-hook/small-hook/rules"
)

// Result is everything a format may print about one check.
type Result struct {
	Tool    string
	Version string
	// Mode is "staged", "range" or "tree".
	Mode string
	// Findings are sorted by path, line and rule.
	Findings []rules.Finding
	// Files is the number of governed files checked.
	Files int
	// Commits is the number of commits checked (range mode).
	Commits int
	// Range describes the range checked, e.g. "1a2b..3c4d (GitHub
	// pull_request, 12 commits)"; empty outside range mode.
	Range string
	// Rules is the rule registry, for formats that describe rules.
	Rules []*rules.Rule
}

// Errors counts the error findings.
func (r *Result) Errors() int { return r.count(rules.Error) }

// Warnings counts the warning findings.
func (r *Result) Warnings() int { return r.count(rules.Warning) }

func (r *Result) count(sev rules.Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == sev {
			n++
		}
	}
	return n
}

// Summary is the one-line summary of a result, e.g. "2 errors, 1 warning
// in 5 files, 3 commits" or "no problems in 5 files".
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

// short abbreviates a commit id to 12 hex digits.
func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// location is "path:line", or "path" for a finding about a whole file.
func location(f rules.Finding) string {
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", f.Path, f.Line)
	}
	return f.Path
}
