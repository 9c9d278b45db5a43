// Package report writes a check's findings in small-hook's output formats:
// one small file per format, all from the same Result.
package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/internal/words"
	"github.com/small-hook/small-hook/rules"
)

// Result is everything a format may print about one check.
type Result struct {
	Tool    string
	Version string
	// Mode is "staged", "range" or "tree".
	Mode string
	// Stage says where the check ran, e.g. "pre-commit stage" or
	// "pre-push/CI check"; the text format names it beside the tool in its
	// summary line. Empty leaves it out.
	Stage string
	// Findings are sorted by path, line and rule; the formats print the
	// findings of one path, line, rule and commit in natural order of their
	// messages (entry 2 before entry 10).
	Findings []rules.Finding
	// Files is the number of governed files checked.
	Files int
	// Refs are the refs a check judged as refs, with no file (the
	// branches a push deletes): a finding about one names it as its path,
	// and is counted as in a ref, not in a file.
	Refs []string
	// Commits is the number of commits checked (range mode).
	Commits int
	// Range describes the range checked, e.g. "1a2b..3c4d (GitHub
	// pull_request)"; empty outside range mode.
	Range string
	// Rules is the rule registry, for formats that describe rules.
	Rules []*rules.Rule
	// Quiet leaves out of the text and GitHub formats everything but the
	// findings: no range line and no summary. JSON and SARIF are always
	// complete.
	Quiet bool
	// Signatures is the signature status of each commit checked, in the
	// order checked: range mode, when the configuration has a signatures
	// section. JSON and SARIF carry them; the text format shows a status
	// only where a finding's message gives it.
	Signatures []Signature
	// Notes are lines about the check itself that are not findings, e.g.
	// that a staged policy change applies from the next commit. Text and
	// GitHub print them unless quiet; JSON carries them.
	Notes []string
	// Reader names what read the repository: "fast" (small-hook's own
	// readers) or "git" (git itself), as gitdiff.Repo.Reader says. JSON
	// carries it.
	Reader string
}

// Signature is what the verification of one commit's signature found.
type Signature struct {
	Commit string
	// Status is the verdict's stable name: valid, unsigned, unknown-key,
	// principal-mismatch, key-expired, key-revoked, wrong-namespace,
	// bad-signature or unsupported.
	Status string
	// Format is none, ssh, openpgp, x509 or unknown.
	Format string
	// Signer is the principal the signature proves (set when valid).
	Signer string
	// Key is the key the signature names: an SSH SHA256 fingerprint or an
	// OpenPGP fingerprint or key ID.
	Key string
	// Entry is where the verifying key is listed (file:line), when valid.
	Entry string
	// Detail says what is wrong; empty when valid.
	Detail string
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

// withFindings says where the findings are: "2 files", "1 ref", "1 file
// and 1 ref", counting distinct paths.
func (r *Result) withFindings() string {
	files, refs := map[string]bool{}, map[string]bool{}
	for _, f := range r.Findings {
		if slices.Contains(r.Refs, f.Path) {
			refs[f.Path] = true
		} else {
			files[f.Path] = true
		}
	}
	var where []string
	if len(files) > 0 || len(refs) == 0 {
		where = append(where, words.Count(len(files), "file", "files"))
	}
	if len(refs) > 0 {
		where = append(where, words.Count(len(refs), "ref", "refs"))
	}
	return strings.Join(where, " and ")
}

// Summary is the one-line summary of a result: "no problems in 5 files",
// or "2 errors, 1 warning in 2 files (5 files checked)" ("1 error in 1
// ref" for a finding about a ref, see Refs); range mode adds
// the number of commits ("no problems in 5 files, 3 commits", "1 error in
// 1 file (5 files checked, 3 commits)"). A count of zero is left out of
// the findings part.
func Summary(r *Result) string {
	files := words.Count(r.Files, "file", "files")
	commits := ""
	if r.Mode == "range" {
		commits = ", " + words.Count(r.Commits, "commit", "commits")
	}
	errs, warns := r.Errors(), r.Warnings()
	if errs+warns == 0 {
		return "no problems in " + files + commits
	}
	var counts []string
	if errs > 0 {
		counts = append(counts, words.Count(errs, "error", "errors"))
	}
	if warns > 0 {
		counts = append(counts, words.Count(warns, "warning", "warnings"))
	}
	return fmt.Sprintf("%s in %s (%s checked%s)", strings.Join(counts, ", "), r.withFindings(), files, commits)
}

// heading names the tool and, when known, the stage: "small-hook
// (pre-commit stage)".
func heading(r *Result) string {
	if r.Stage == "" {
		return r.Tool
	}
	return r.Tool + " (" + r.Stage + ")"
}

// location is "path:line", or "path" for a finding about a whole file.
func location(f rules.Finding) string {
	if f.Line > 0 {
		return fmt.Sprintf("%s:%d", f.Path, f.Line)
	}
	return f.Path
}
