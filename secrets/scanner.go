// Package secrets finds secrets in content about to be committed, with
// gitleaks' rules, and never lets a secret value out of the package: its
// findings carry the rule, the location and a redacted preview only.
package secrets

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// chunkSize bounds the text handed to gitleaks at once: its cost grows
// with keywords per fragment, and one fragment of a 1 MB progress file
// takes seconds.
const chunkSize = 32 << 10

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
	Path        string
	Line        int
	Column      int
	// Preview is a redacted hint (never more than the first four
	// characters of a long secret and its length).
	Preview string
	// Fingerprint is path:rule:line, the form .gitleaksignore takes.
	Fingerprint string
}

// Scanner finds secrets. It builds gitleaks' detector the first time it
// has content to scan, and only then: a check with nothing to scan does not
// pay for compiling gitleaks' rules.
type Scanner struct {
	opts Options
	// rules is the parsed configuration, before its regular expressions
	// are compiled.
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
// line) of the file at path; commit, when not empty, is matched against
// commit-scoped .gitleaksignore fingerprints.
func (s *Scanner) Scan(path string, data []byte, lines []int, commit string) ([]Finding, error) {
	return s.ScanFrom(path, data, 1, lines, commit)
}

// ScanFrom is Scan for data that is the part of a file starting at line
// first: a caller that knows where the new lines start need not hand over
// (or have split into lines) the text before them.
func (s *Scanner) ScanFrom(path string, data []byte, first int, lines []int, commit string) ([]Finding, error) {
	if len(bytes.TrimSpace(data)) == 0 || (lines != nil && len(lines) == 0) {
		return nil, nil
	}
	if err := s.load(); err != nil {
		return nil, err
	}
	parts := chunks(data, first, s.keywordLines(data, first, lines))
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
		for _, f := range det.Detect(detect.Fragment{Raw: c.text, FilePath: path, StartLine: c.line}) {
			if isDID(f.Line, f.Secret) {
				continue
			}
			fp := fmt.Sprintf("%s:%s:%d", path, f.RuleID, f.StartLine)
			if s.ignore[fp] || (commit != "" && s.ignore[commit+":"+fp]) {
				continue
			}
			out = append(out, Finding{
				RuleID: f.RuleID, Description: f.Description, Path: path,
				Line: f.StartLine, Column: f.StartColumn,
				Preview: preview(f.Secret), Fingerprint: fp,
			})
		}
	}
	slices.SortFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.RuleID, b.RuleID))
	})
	return slices.CompactFunc(out, func(a, b Finding) bool { return a.Fingerprint == b.Fingerprint && a.Column == b.Column }), nil
}

// isDID reports a match that is the key part of a did:key identifier, as
// awp writes into every artifact: gitleaks' generic-api-key rule takes
// "key:z6Mk…" for an API key.
func isDID(line, secret string) bool {
	return secret != "" && strings.Contains(line, "did:key:"+secret)
}

// preview redacts a secret to at most its first four characters and its
// length.
func preview(secret string) string {
	n := len([]rune(secret))
	if n >= 16 {
		return fmt.Sprintf("%s…(%d chars)", string([]rune(secret)[:4]), n)
	}
	return fmt.Sprintf("…(%d chars)", n)
}

// chunk is text to scan and the file line it starts on.
type chunk struct {
	text string
	line int
}

// chunks cuts the selected lines of data (sorted line numbers of the file
// whose line first data starts at; nil: all) into runs of consecutive
// lines of at most chunkSize bytes (a longer single line is its own chunk).
func chunks(data []byte, first int, lines []int) []chunk {
	var out []chunk
	var cur []byte
	start, prev := 0, -1
	flush := func() {
		if len(cur) > 0 {
			out = append(out, chunk{text: string(cur), line: start})
			cur = cur[:0]
		}
	}
	n, pos := first-1, 0
	for pos < len(data) {
		n++
		end := len(data)
		if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
			end = pos + i + 1
		}
		l := data[pos:end]
		pos = end
		if lines != nil {
			for len(lines) > 0 && lines[0] < n {
				lines = lines[1:]
			}
			if len(lines) == 0 {
				break
			}
			if lines[0] != n {
				continue
			}
		}
		if prev != n-1 || len(cur)+len(l) > chunkSize {
			flush()
			start = n
		}
		cur = append(cur, l...)
		prev = n
	}
	flush()
	return out
}
