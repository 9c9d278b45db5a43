// Package secrets finds secrets in content about to be committed, with
// gitleaks' rules, and never lets a secret value out of the package: its
// findings carry the rule, the location and a redacted preview only, and
// Redact removes secrets from any text before it is printed.
package secrets

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// LeadingContext is how many bytes before its first judged line a Part's
// Data should start, when the file has them: a block secret (a PEM private
// key) that covers a judged line is only seen whole from its opening line,
// and a value is only recognised with its key on the line before.
const LeadingContext = maxBlock

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

// Finding is one possible secret. It never holds the secret itself. A
// gitleaks:allow marker on its lines does not suppress it here: whether
// the marker counts depends on who wrote it, which the caller judges.
type Finding struct {
	// RuleID is gitleaks' rule id, e.g. aws-access-token.
	RuleID string
	// Description is the rule's description.
	Description string
	// Path is the scanned file's path.
	Path string
	// Line is the 1-based line the match starts on; 0 for a rule that
	// matches the file's path alone.
	Line int
	// EndLine is the line the match ends on: Line for a one-line secret,
	// later for a block such as a private key.
	EndLine int
	// Column is the 1-based byte column the match starts at on Line; 0
	// when unknown (a path match, a secret found in a decoded value).
	Column int
	// Preview is a redacted hint: at most the first four characters of a
	// secret of 16 or more characters, and its length; empty when the
	// secret could not be located again.
	Preview string
	// Fingerprint is path:rule:line, the form .gitleaksignore takes.
	Fingerprint string
	// Encoding says how the secret was written when gitleaks' decoder
	// found it ("base64", "hex", "percent", "unicode", several joined by
	// "+"); "" for a secret written as it is.
	Encoding string
}

// Part is a piece of one file to scan.
type Part struct {
	// Path is the file's path, slash-separated; gitleaks' path rules and
	// allowlists match it.
	Path string
	// Data is the file's content from line FirstLine on. It may start
	// before the judged lines (see LeadingContext) and go on after them:
	// the scanner reads around a judged line what a secret covering it
	// needs, and no more.
	Data []byte
	// FirstLine is the 1-based file line Data starts on; 0 means 1.
	FirstLine int
	// Lines are the 1-based file lines being judged, sorted: a secret is
	// reported when its match covers at least one of them. nil means every
	// line (and the file's path, for path rules); empty means none.
	Lines []int
	// Commit, when set, is matched against commit-scoped .gitleaksignore
	// fingerprints (commit:path:rule:line).
	Commit string
	// Protocol is set for a file of protocol state (a governed file):
	// gitleaks' built-in path allowlist (dependency folders, lock files,
	// images and documents by extension) does not skip it, as none of
	// those belongs there and an agent names the file; the repository's
	// own allowlists still do.
	Protocol bool
}

// Scanner finds secrets. It builds gitleaks' detector the first time it
// has content to scan, and only then: a check with nothing to scan does
// not pay for compiling gitleaks' rules. It remembers, in memory only,
// every secret it finds, so that Redact can remove them from any text. Use
// one Scanner per run; it is safe for concurrent use.
type Scanner struct {
	opts Options
	// mu guards what the Scanner builds as content calls for it: the
	// configuration and its index (built once, read-only after), the
	// detectors, the rules they hold, the error that stopped them and the
	// fallback.
	mu sync.Mutex
	// rules is the configuration with the default rules merged in, before
	// its regular expressions are compiled.
	rules *config.ViperConfig
	// detector holds the compiled rules named in included; blocks holds
	// only the rules whose matches span lines (see blockRules).
	detector *detect.Detector
	included map[string]bool
	compiler *compiler
	blocks   *detect.Detector
	// gate returns what skips the files the global allowlists skip by
	// their path, built the first time it is asked for.
	gate func() (*pathGate, error)
	// trie finds every rule's keywords (lower case) and keywordRules maps
	// each to the rules it calls for; blockKeywords and blockRules are
	// the keywords and ids of rules that match blocks spanning lines;
	// keywordless is set when a content rule has none (then no line can
	// be skipped).
	trie          *ahocorasick.Trie
	keywordRules  map[string][]string
	blockKeywords map[string]bool
	blockRules    map[string]bool
	keywordless   bool
	// keywordSpansLines is set when a keyword holds a line break: then
	// keywords are looked for in the whole text (see plan).
	keywordSpansLines bool
	err               error
	ignore            map[string]bool
	// found holds every secret found in this run, for Redact.
	found known
	// fallback redacts with gitleaks' default rules when the repository's
	// configuration cannot be loaded.
	fallback *Scanner
	// scanned counts the bytes handed to gitleaks' detectors.
	scanned atomic.Int64
}

// Scanned returns how many bytes the Scanner has handed to gitleaks'
// detectors so far: the work of its scans, which the work budget's tests
// count as the input grows.
func (s *Scanner) Scanned() int64 { return s.scanned.Load() }

// init silences gitleaks' package-global logger once, before any scan:
// its trace logs print secrets, and assigning it per scan would race
// between scanners.
func init() { logging.Logger = zerolog.Nop() }

// New returns a Scanner; it does no work until it has content.
func New(opts Options) *Scanner {
	return &Scanner{opts: opts}
}

// Scan looks for secrets that cover the given 1-based lines of data (nil:
// every line; empty: none) of the file at path.
func (s *Scanner) Scan(path string, data []byte, lines []int) ([]Finding, error) {
	return s.ScanPart(Part{Path: path, Data: data, Lines: lines})
}

// ScanPart looks for secrets that cover the judged lines of a part of a
// file: a caller that knows where the new lines start need not hand over
// the whole file.
func (s *Scanner) ScanPart(p Part) ([]Finding, error) {
	if len(bytes.TrimSpace(p.Data)) == 0 || (p.Lines != nil && len(p.Lines) == 0) {
		return nil, nil
	}
	text := newText(p.Data, max(p.FirstLine, 1))
	judged := text.judge(p.Lines)
	found, err := s.find(p.Path, p.Protocol, text, judged)
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, m := range found {
		f := Finding{RuleID: m.rule, Description: m.description, Path: p.Path, Encoding: m.encoding}
		if m.start >= 0 {
			f.Line, f.Column = text.position(m.start)
			f.EndLine, _ = text.position(m.end - 1)
			if !judged.anyIn(f.Line, f.EndLine) {
				continue
			}
		} else if p.Lines != nil {
			// A path rule judges the file, and a file with history was
			// judged when it was added.
			continue
		}
		if s.keep(&f, m.secret, p.Commit) {
			out = append(out, f)
		}
	}
	sortFindings(out)
	return out, nil
}

// keep completes a finding and reports whether .gitleaksignore leaves it
// in.
func (s *Scanner) keep(f *Finding, secret, commit string) bool {
	f.Preview = preview(secret)
	f.Fingerprint = fmt.Sprintf("%s:%s:%d", f.Path, f.RuleID, f.Line)
	return !s.ignore[f.Fingerprint] && (commit == "" || !s.ignore[commit+":"+f.Fingerprint])
}

func sortFindings(out []Finding) {
	slices.SortFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column), cmp.Compare(a.RuleID, b.RuleID))
	})
}
