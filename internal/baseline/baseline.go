// Package baseline reads and writes a repository's baseline
// (config.Baseline, .small-hook-baseline): the findings on commits of the
// history a repository had when it adopted small-hook, which a human
// records instead of rewriting that history. Each line is one finding's
// fingerprint, <commit>:<path>:<rule>:<line>, as gitleaks' commit-scoped
// .gitleaksignore fingerprints are: the commit is named by its full id, so
// a fingerprint accepts a finding on that one commit and can never cover a
// commit made after it. Which baseline a check honours, and for which
// commits, is the check's decision (docs/trust-roots.md).
package baseline

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/small-hook/small-hook/rules"
)

// Baseline is a parsed baseline: a set of fingerprints.
type Baseline struct {
	fingerprints map[string]bool
}

// Error is a line of a baseline that is not a fingerprint.
type Error struct {
	Line int
	Msg  string
}

// Error returns "line N: message".
func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// fingerprintPattern is <commit>:<path>:<rule>:<line>: the commit a full
// lower-case id, the path anything (it may hold colons), the rule without
// a colon, the line a decimal number.
var fingerprintPattern = regexp.MustCompile(`^[0-9a-f]{40}:.+:[^:]+:(0|[1-9][0-9]*)$`)

// commitPattern is what a fingerprint starts with.
var commitPattern = regexp.MustCompile(`^[0-9a-f]{40}:`)

// Parse reads a baseline: one fingerprint a line; blank lines and lines
// starting with # are ignored, and so is the space around a fingerprint.
// A line that is not a fingerprint is an *Error: an abbreviated commit id
// or a pattern would accept findings on commits nobody has seen.
func Parse(data []byte) (*Baseline, error) {
	b := &Baseline{fingerprints: map[string]bool{}}
	for i, raw := range bytes.Split(data, []byte("\n")) {
		line := strings.TrimSpace(string(raw))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		switch {
		case !commitPattern.MatchString(line):
			return nil, &Error{Line: i + 1, Msg: "a fingerprint starts with the full 40-digit id of the commit it accepts a finding on (<commit>:<path>:<rule>:<line>): a baseline names commits, never a pattern or an abbreviated id"}
		case !fingerprintPattern.MatchString(line):
			return nil, &Error{Line: i + 1, Msg: "not a fingerprint: want <commit>:<path>:<rule>:<line>, the line a number (0 for a finding about a whole file)"}
		}
		b.fingerprints[line] = true
	}
	return b, nil
}

// Fingerprint returns the fingerprint of a finding on a commit, and false
// for a finding on no commit (a staged change, a tree) or one a baseline
// line cannot hold (a path with a line break, a rule ID with a colon).
func Fingerprint(f rules.Finding) (string, bool) {
	if f.Commit == "" || strings.Contains(f.Rule, ":") {
		return "", false
	}
	fp := f.Commit + ":" + f.Path + ":" + f.Rule + ":" + strconv.Itoa(f.Line)
	if strings.ContainsAny(fp, "\n\r") || !fingerprintPattern.MatchString(fp) {
		return "", false
	}
	return fp, true
}

// Accepts reports whether the baseline holds the finding's fingerprint.
func (b *Baseline) Accepts(f rules.Finding) bool {
	fp, ok := Fingerprint(f)
	return ok && b.fingerprints[fp]
}

// Fingerprints lists the baseline's fingerprints, sorted.
func (b *Baseline) Fingerprints() []string {
	out := make([]string, 0, len(b.fingerprints))
	for fp := range b.fingerprints {
		out = append(out, fp)
	}
	slices.Sort(out)
	return out
}

// header opens every baseline small-hook writes.
const header = `# small-hook baseline: findings on commits of the history this repository had when it
# adopted small-hook, recorded by a human instead of rewriting that history. One fingerprint
# a line, <commit>:<path>:<rule>:<line>. A fingerprint names one commit by its full id, so it
# never covers a commit made later. Written by small-hook check --history --write-baseline;
# human-owned: commit it as a human (docs/workflows.md#first-adoption).
`

// Format returns a baseline file that holds the fingerprints, each once,
// sorted, after a header that says what the file is.
func Format(fingerprints []string) []byte {
	sorted := slices.Compact(slices.Sorted(slices.Values(fingerprints)))
	var buf bytes.Buffer
	buf.WriteString(header)
	for _, fp := range sorted {
		buf.WriteString(fp)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}
