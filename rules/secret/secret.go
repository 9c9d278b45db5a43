// Package secret reports secrets in governed files with gitleaks' rules.
package secret

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/internal/parallel"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/secrets"
)

// ID is the rule family: findings are reported as secrets/<gitleaks rule>.
const ID = "secrets"

// Rules returns the secret rules: gitleaks' rules as one family, and the
// credential-named keys.
func Rules() []*rules.Rule {
	return []*rules.Rule{{
		ID:       ID,
		Severity: rules.Error,
		Doc: `No secrets in agent state (secrets/<gitleaks rule id>)
SMALL invariant 1: no secrets, API keys, passwords or tokens in any artifact. The new content of every governed file (.small/, artifacts/, .awp/ — awp writes .awp/private-key.pem there; every staged file with secrets.scope: staged) is scanned with gitleaks' rules, and each finding is reported as secrets/<gitleaks rule id>, e.g. secrets/aws-access-token, with a redacted preview: the secret itself is never shown. In staged and range modes a secret is reported when a line it covers was added (a line is added when no old version, no parent of a merge, holds it): a private key whose BEGIN and END lines were committed before its body is judged whole, and so is a value added under an existing key; with --all every line. The string values of YAML files and of artifacts' frontmatter are also scanned as YAML decodes them, with their keys, when the raw text differs (escapes such as \x41, a double-quoted scalar continued with a backslash, block and folded scalars, aliases), and reported at the value's first line. Likewise the added lines of JSON files (.awp/, .small/ext/) are scanned with their string escapes resolved (\u0067 is g), and those of Markdown files (an artifact's body) with their character references and backslash escapes resolved (&#103; and &#x67; are g, \_ is _), as a reader sees them. Long lines are scanned in overlapping windows, so no input makes the scan hang. The repository's .gitleaks.toml is honoured ([extend] useDefault = true adds its rules to gitleaks' defaults, otherwise it replaces them; a rule of its own named credential-key is reported as secrets/gitleaks:credential-key); awp's did:key identifiers are never reported. Fix: remove the secret and rotate the credential, since it is in your working tree and maybe in history. A false positive is suppressed with a gitleaks:allow comment on its line, or with the fingerprint the message gives (path:rule:line, or commit:path:rule:line in range mode) in .gitleaksignore; .gitleaks.toml and .gitleaksignore are policy files, read from HEAD in the staged stages and from the base of a range, so a fingerprint is committed before the change it suppresses.`,
		Run:   run,
		Apart: true,
		// Excluding a path from the protocol rules does not make it a
		// place where secrets may be kept.
		SeesExcluded: true,
	}, credentialKeyRule()}
}

// parallelBytes is the most content a unit's changes may hold together
// to be scanned in parallel: each scan makes working copies of up to about
// four times its file (the lower-cased text, fragments, decoded values),
// so parallel scans add at most a few times this to what scanning one
// change after the other takes. A larger unit is scanned a change at a
// time, each large file's fragments still on every processor.
const parallelBytes = 16 << 20

// governed reports a change scanned under the default scope: any file of
// a workspace (its .small/, artifacts/ or .awp/ directory), including paths
// that only fold to one.
func governed(ch changes.Change) bool { return ch.Place.Governed() }

func run(pass *rules.Pass) error {
	if pass.Secrets == nil {
		return nil
	}
	commit := ""
	if pass.Unit.Commit != nil {
		commit = pass.Unit.Commit.Hash
	}
	var scanned []changes.Change
	for _, ch := range pass.Unit.Changes {
		if ch.New == nil || ch.New.Regular() != nil {
			continue
		}
		if pass.Config.Secrets.Scope != "staged" && !governed(ch) {
			continue
		}
		scanned = append(scanned, ch)
	}
	// The changes are scanned in parallel (a commit that adds a workspace
	// adds several large files) and reported in their order; one after the
	// other past parallelBytes.
	found := make([][]secrets.Finding, len(scanned))
	errs := make([]error, len(scanned))
	scan := func(i int) { found[i], errs[i] = secretsAdded(pass, scanned[i], commit) }
	size := 0
	for _, ch := range scanned {
		size += len(ch.New.Data)
	}
	if size <= parallelBytes {
		parallel.Each(len(scanned), scan)
	} else {
		for i := range scanned {
			scan(i)
		}
	}
	for i := range scanned {
		if errs[i] != nil {
			return errs[i]
		}
		for _, f := range found[i] {
			pass.ReportAs(reportedID(f.RuleID), rules.Error, f.Path, f.Line, "%s", message(f, commit)).Hint("%s", secretHint)
		}
	}
	return nil
}

// secretsAdded returns the secrets a change adds: those its text shows, then
// those only its decoded YAML values do, then those only the unescaped
// text of a JSON or Markdown file does.
func secretsAdded(pass *rules.Pass, ch changes.Change, commit string) ([]secrets.Finding, error) {
	part := secrets.Part{Path: ch.Path, Data: ch.New.Data, Commit: commit}
	if pass.Unit.Mode != changes.ModeTree {
		var from int
		part.Lines, from, part.FirstLine = addedAt(pass, ch)
		from, part.FirstLine = withContext(ch.New.Data, from, part.FirstLine)
		part.Data = ch.New.Data[from:]
	}
	raw, err := pass.Secrets.ScanPart(part)
	if err != nil {
		return nil, fmt.Errorf("scanning %s for secrets: %w", ch.Path, err)
	}
	var out []secrets.Finding
	for _, f := range raw {
		if pass.Unit.Mode == changes.ModeTree || addsTo(ch, f) {
			out = append(out, f)
		}
	}
	decoded, err := addedDecoded(pass, ch, commit, raw)
	if err != nil {
		return nil, err
	}
	unescaped, err := addedUnescaped(pass, ch, commit, raw)
	return slices.Concat(out, decoded, unescaped), err
}

// reportedID is the ID a gitleaks rule's findings are reported under:
// secrets/<rule>, except for a rule that would take the ID of one of
// small-hook's own rules.
func reportedID(rule string) string {
	if id := ID + "/" + rule; id != CredentialKeyID {
		return id
	}
	return ID + "/gitleaks:" + rule
}

// message says what was found, without the secret, with the fingerprint
// that suppresses it.
func message(f secrets.Finding, commit string) string {
	found := "possible secret (" + strings.TrimSuffix(f.Description, ".") + ")"
	if f.Preview != "" {
		found += ": " + f.Preview
	}
	fp := f.Fingerprint
	if commit != "" {
		fp = commit + ":" + fp
	}
	return found + ", fingerprint " + fp
}

// secretHint says how to fix or suppress a secret finding.
const secretHint = "remove it and rotate the credential; if it is a false positive, add `gitleaks:allow` to its line, or commit its fingerprint to .gitleaksignore first (a policy file applies from the next commit, and a range reads it from its base)"

// withContext moves the start of the text handed to the scanner, at byte
// offset from and file line first, back to the start of a line at least
// secrets.LeadingContext bytes earlier (when the file has them): a block
// secret that encloses an added line, or the key of a value added on the
// next line, is only recognised whole.
func withContext(data []byte, from, first int) (int, int) {
	start := max(from-secrets.LeadingContext, 0)
	start = bytes.LastIndexByte(data[:start], '\n') + 1
	return start, first - bytes.Count(data[start:from], []byte("\n"))
}

// addsTo reports whether a finding's match covers a line of the new
// version that no old version holds: a private key whose BEGIN and END
// lines were already there is new when a line of its body is.
func addsTo(ch changes.Change, f secrets.Finding) bool {
	return f.Line == 0 || spanAdded(ch, f.Line, f.EndLine)
}

// inOldVersion reports whether line n of the new version occurs whole in
// the old version (in a parent, for a merge): it was not added. The lines
// scanned are a cheap superset of the added ones (see addedLines); this
// exact test runs only for the rare line that holds a finding.
func inOldVersion(ch changes.Change, n int) bool {
	line := lineAt(ch.New.Data, n)
	for _, b := range oldVersions(ch) {
		if hasLine(b.Data, line) {
			return true
		}
	}
	return false
}

// oldVersions lists the regular-file versions a change is compared with:
// the old file, or for a merge the file at every parent.
func oldVersions(ch changes.Change) []*changes.Blob {
	olds := []*changes.Blob{ch.Old}
	if ch.Merge != nil {
		olds = ch.Merge.Parents
	}
	var out []*changes.Blob
	for _, b := range olds {
		if b != nil && b.Regular() == nil {
			out = append(out, b)
		}
	}
	return out
}

// lineAt returns line n (1-based) of data without its line ending.
func lineAt(data []byte, n int) []byte {
	for ; n > 1; n-- {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil
		}
		data = data[i+1:]
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i]
	}
	return bytes.TrimRight(data, "\r")
}

// hasLine reports whether text holds line as a whole line (ignoring a
// carriage return before the newline).
func hasLine(text, line []byte) bool {
	for off := 0; off <= len(text); {
		i := bytes.Index(text[off:], line)
		if i < 0 {
			return false
		}
		start, end := off+i, off+i+len(line)
		rest := text[end:]
		if (start == 0 || text[start-1] == '\n') &&
			(len(rest) == 0 || rest[0] == '\n' || bytes.HasPrefix(rest, []byte("\r\n")) || (rest[0] == '\r' && len(rest) == 1)) {
			return true
		}
		off = start + 1
	}
	return false
}

// addedLines returns the 1-based lines of the new version that are in no
// old version (nil: every line, for a file with no old version), and the
// byte offset and line number where the first of them can start. A secret
// already committed was reported when it was added. The common prefix and
// suffix are skipped byte-wise first, so an append to a large file costs
// only what was appended.
func addedLines(ch changes.Change) (lines []int, from, first int) {
	var texts [][]byte
	for _, b := range oldVersions(ch) {
		texts = append(texts, b.Data)
	}
	if len(texts) == 0 {
		return nil, 0, 1
	}
	cur := ch.New.Data
	start, end := 0, len(cur)
	if len(texts) == 1 {
		start, end = commonLines(texts[0], cur)
		texts[0] = texts[0][start : len(texts[0])-(len(cur)-end)]
	}
	seen := map[string]bool{}
	for _, t := range texts {
		for _, l := range bytes.Split(t, []byte("\n")) {
			seen[string(bytes.TrimRight(l, "\r"))] = true
		}
	}
	lines = []int{}
	first = 1 + bytes.Count(cur[:start], []byte("\n"))
	if start == end {
		return lines, start, first
	}
	for i, l := range bytes.Split(cur[start:end], []byte("\n")) {
		if !seen[string(bytes.TrimRight(l, "\r"))] {
			lines = append(lines, first+i)
		}
	}
	return lines, start, first
}

// commonLines returns the byte range [start, end) of cur that is not part
// of the whole lines cur shares with old at its start and at its end.
func commonLines(old, cur []byte) (start, end int) {
	n := commonPrefix(old, cur)
	start = bytes.LastIndexByte(cur[:n], '\n') + 1
	if n == len(old) && n == len(cur) {
		return len(cur), len(cur)
	}
	m := commonSuffix(old[start:], cur[start:])
	end = len(cur) - m
	if i := bytes.IndexByte(cur[end:], '\n'); i >= 0 && end > start {
		end += i + 1
	} else {
		end = len(cur)
	}
	return start, max(start, end)
}

// commonPrefix returns the length of the longest common prefix, comparing
// blocks at a time.
func commonPrefix(a, b []byte) int {
	const block = 4096
	n := 0
	for n+block <= len(a) && n+block <= len(b) && bytes.Equal(a[n:n+block], b[n:n+block]) {
		n += block
	}
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// commonSuffix returns the length of the longest common suffix.
func commonSuffix(a, b []byte) int {
	m := 0
	for m < len(a) && m < len(b) && a[len(a)-1-m] == b[len(b)-1-m] {
		m++
	}
	return m
}
