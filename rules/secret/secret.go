// Package secret reports secrets in governed files with gitleaks' rules.
package secret

import (
	"bytes"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/rules"
)

// ID is the rule family: findings are reported as secrets/<gitleaks rule>.
const ID = "secrets"

// Rules returns the secret rule.
func Rules() []*rules.Rule {
	return []*rules.Rule{{
		ID:       ID,
		Severity: rules.Error,
		Doc: `No secrets in agent state (secrets/<gitleaks rule id>)
SMALL invariant 1: no secrets, API keys, passwords or tokens in any artifact. The new content of every governed file (.small/, artifacts/, .awp/; every staged file with secrets.scope: staged) is scanned with gitleaks' rules; findings are reported as secrets/<gitleaks rule id>, e.g. secrets/aws-access-token, and never show the secret. In staged and range modes only the lines a change adds are scanned; with --all every line. The repository's .gitleaks.toml and .gitleaksignore are honoured, and so is a gitleaks:allow comment on the line. Remove the secret and rotate it: it is in your working tree and maybe in history.`,
		Run: run,
	}}
}

// governed lists the paths scanned under the default scope.
func governed(path string) bool {
	for _, p := range []string{".small/", "artifacts/", ".awp/"} {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

func run(pass *rules.Pass) error {
	if pass.Secrets == nil {
		return nil
	}
	commit := ""
	if pass.Unit.Commit != nil {
		commit = pass.Unit.Commit.Hash
	}
	for _, ch := range pass.Unit.Changes {
		if ch.New == nil || ch.New.Kind != gitdiff.KindFile {
			continue
		}
		if pass.Config.Secrets.Scope != "staged" && !governed(ch.Path) {
			continue
		}
		lines, from, first := addedLines(ch)
		found, err := pass.Secrets.ScanFrom(ch.Path, ch.New.Data[from:], first, lines, commit)
		if err != nil {
			return err
		}
		for _, f := range found {
			pass.ReportAs(ID+"/"+f.RuleID, rules.Error, f.Path, f.Line,
				"possible secret (%s): %s; remove it and rotate the credential; if it is a false positive, add gitleaks:allow to the line or the fingerprint %s to .gitleaksignore",
				strings.TrimSuffix(f.Description, "."), f.Preview, fingerprint(commit, f.Fingerprint))
		}
	}
	return nil
}

func fingerprint(commit, fp string) string {
	if commit != "" {
		return commit + ":" + fp
	}
	return fp
}

// addedLines returns the 1-based lines of the new version that are in no
// old version (nil: every line, for a file with no old version), and the
// byte offset and line number where the first of them can start. A secret
// already committed was reported when it was added. The common prefix and
// suffix are skipped byte-wise first, so an append to a large file costs
// only what was appended.
func addedLines(ch gitdiff.Change) (lines []int, from, first int) {
	olds := []*gitdiff.Blob{ch.Old}
	if ch.Merge != nil {
		olds = ch.Merge.Parents
	}
	var texts [][]byte
	for _, b := range olds {
		if b != nil && b.Kind == gitdiff.KindFile {
			texts = append(texts, b.Data)
		}
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
