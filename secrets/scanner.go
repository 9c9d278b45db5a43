// Package secrets finds secrets in content about to be committed, with
// gitleaks' rules, and never lets a secret value out of the package: its
// findings carry the rule, the location and a redacted preview only.
package secrets

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// Options configures a Scanner from the repository's gitleaks files.
type Options struct {
	// Config is the repository's .gitleaks.toml; nil means gitleaks'
	// default rules.
	Config []byte
	// ConfigPath names Config in messages.
	ConfigPath string
	// Ignore is the repository's .gitleaksignore: one fingerprint a line,
	// path:rule:line or commit:path:rule:line.
	Ignore []byte
}

// Finding is one possible secret. It never holds the secret itself.
type Finding struct {
	// RuleID is gitleaks' rule id, e.g. aws-access-token.
	RuleID string
	// Description is the rule's description.
	Description string
	// Path is the scanned file's path.
	Path string
	// Line is the 1-based line the match starts on.
	Line int
	// Column is gitleaks' column of the match.
	Column int
	// Preview is a redacted hint: at most the first four characters of a
	// secret of 16 or more characters, and its length; empty when the
	// secret could not be located again.
	Preview string
	// Fingerprint is path:rule:line, the form .gitleaksignore takes.
	Fingerprint string
}

// Part is a piece of one file to scan.
type Part struct {
	// Path is the file's path, slash-separated; gitleaks' path rules and
	// allowlists match it.
	Path string
	// Data is the file's content from line FirstLine on.
	Data []byte
	// FirstLine is the 1-based file line Data starts on; 0 means 1.
	FirstLine int
	// Lines are the 1-based file lines to scan, sorted; nil means every
	// line, empty means none.
	Lines []int
	// Commit, when set, is matched against commit-scoped .gitleaksignore
	// fingerprints (commit:path:rule:line).
	Commit string
}

// Scanner finds secrets. It builds gitleaks' detector the first time it
// has content to scan, and only then: a check with nothing to scan does
// not pay for compiling gitleaks' rules. Use one Scanner per run; it is not
// safe for concurrent use.
type Scanner struct {
	opts Options
	// rules is the configuration with the default rules merged in, before
	// its regular expressions are compiled.
	rules *config.ViperConfig
	// detector holds the compiled rules named in included.
	detector *detect.Detector
	included map[string]bool
	// trie finds every rule's keywords (lower case); blockPattern marks
	// the keywords of rules that match blocks spanning lines; keywordless
	// is set when a content rule has none (then no line can be skipped).
	trie         *ahocorasick.Trie
	blockPattern map[int64]bool
	keywordless  bool
	err          error
	ignore       map[string]bool
}

// New returns a Scanner; it does no work until Scan has content.
func New(opts Options) *Scanner {
	return &Scanner{opts: opts}
}

// Scan looks for secrets in the given 1-based lines of data (nil: every
// line; empty: none) of the file at path.
func (s *Scanner) Scan(path string, data []byte, lines []int) ([]Finding, error) {
	return s.ScanPart(Part{Path: path, Data: data, Lines: lines})
}

// ScanPart looks for secrets in a part of a file: a caller that knows
// where the new lines start need not hand over the text before them.
func (s *Scanner) ScanPart(p Part) ([]Finding, error) {
	first := max(p.FirstLine, 1)
	if len(bytes.TrimSpace(p.Data)) == 0 || (p.Lines != nil && len(p.Lines) == 0) {
		return nil, nil
	}
	if err := s.load(); err != nil {
		return nil, err
	}
	parts := chunks(p.Data, first, s.keywordLines(p.Data, first, p.Lines))
	var all []byte
	for _, c := range parts {
		all = append(all, c.text...)
	}
	det, err := s.detectorFor(all)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, c := range parts {
		//lint:ignore SA1019 Detect takes this type throughout gitleaks v8
		for _, f := range det.Detect(detect.Fragment{Raw: c.text, FilePath: p.Path, StartLine: c.line}) {
			fp := fmt.Sprintf("%s:%s:%d", p.Path, f.RuleID, f.StartLine)
			if s.ignore[fp] || (p.Commit != "" && s.ignore[p.Commit+":"+fp]) {
				continue
			}
			out = append(out, Finding{
				RuleID: f.RuleID, Description: f.Description, Path: p.Path,
				Line: f.StartLine, Column: f.StartColumn,
				Preview: preview(secretOf(det, c, f)), Fingerprint: fp,
			})
		}
	}
	slices.SortFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.RuleID, b.RuleID))
	})
	return slices.CompactFunc(out, func(a, b Finding) bool { return a.Fingerprint == b.Fingerprint && a.Column == b.Column }), nil
}
