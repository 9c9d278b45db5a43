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
		found, err := pass.Secrets.Scan(ch.Path, ch.New.Data, addedLines(ch), commit)
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
// old version (nil: every line, for a file with no old version). A secret
// already committed was reported when it was added.
func addedLines(ch gitdiff.Change) []int {
	olds := []*gitdiff.Blob{ch.Old}
	if ch.Merge != nil {
		olds = ch.Merge.Parents
	}
	seen := map[string]bool{}
	any := false
	for _, b := range olds {
		if b == nil || b.Kind != gitdiff.KindFile {
			continue
		}
		any = true
		for _, l := range bytes.Split(b.Data, []byte("\n")) {
			seen[string(bytes.TrimRight(l, "\r"))] = true
		}
	}
	if !any {
		return nil
	}
	lines := []int{}
	for i, l := range bytes.Split(ch.New.Data, []byte("\n")) {
		if !seen[string(bytes.TrimRight(l, "\r"))] {
			lines = append(lines, i+1)
		}
	}
	return lines
}
