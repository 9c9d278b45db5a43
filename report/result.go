// Package report writes a check's findings in small-hook's output formats:
// one small file per format, all from the same Result.
package report

import (
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
