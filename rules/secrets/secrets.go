package secrets

import (
	"fmt"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/parallel"
	leaks "github.com/small-hook/small-hook/internal/secrets"
	"github.com/small-hook/small-hook/rules"
)

// family is the rule family: findings are reported as secrets/<gitleaks
// rule>.
const family = "secrets"

func secretsRule() *rules.Rule {
	return &rules.Rule{
		ID:           family,
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `No secrets in agent state (secrets/<gitleaks rule id>)
SMALL invariant 1: no secrets, API keys, passwords or tokens in any artifact. The new content of every governed file (.small/, artifacts/, .awp/ — awp writes .awp/private-key.pem there; every staged file with secrets.scope: staged), and the target of every symbolic link there (git stores it as a blob and every checkout writes it), is scanned with gitleaks' rules, with gitleaks' decoder on as its CLI runs it (base64, hex, percent-encoding, \u and U+ escapes, decoded up to 5 times, so a YAML !!binary value or a base64 value in a TOML file is read too), and each finding is reported as secrets/<gitleaks rule id>, e.g. secrets/aws-access-token, with a redacted preview: the secret itself is never shown, nor its encoded text. In staged and range modes a secret is reported when a line it covers was added (a line is added when no old version, no parent of a merge, holds it): a private key whose BEGIN and END lines were committed before its body is judged whole, and so is a value added under an existing key; with --all every line. The string values of YAML files and of artifacts' frontmatter are also scanned as YAML decodes them, with their keys, when the raw text differs (escapes such as \x41, a double-quoted scalar continued with a backslash, block and folded scalars, aliases), and reported at the value's first line. Likewise the added lines of JSON files (.awp/, .small/ext/) are scanned with their string escapes resolved (\u0067 is g), and Markdown files (an artifact's body) as they render: character references and backslash escapes resolved (&#103; and &#x67; are g, \_ is _), HTML comments, tags, emphasis and code markers, link syntax and invisible characters inside a token left out. Long lines are scanned in overlapping windows, so no input makes the scan hang. The repository's .gitleaks.toml is honoured ([extend] useDefault = true adds its rules to gitleaks' defaults, otherwise it replaces them; a rule of its own named credential-key is reported as secrets/gitleaks:credential-key); awp's did:key identifiers are never reported. Fix: remove the secret and rotate the credential, since it is in your working tree and maybe in history; a commit already made is rewritten so that no commit of the branch holds it, and a branch already pushed is pushed again with a human's Small-Rewrite: commit at its tip (docs/secrets.md says how). A false positive is suppressed with a gitleaks:allow comment on its line, which counts when a human's commit (with no evidence of an agent) writes it or the line was there before the change, never when an agent's commit writes it (in the pre-commit stage the commit-msg stage decides); or with the fingerprint the message gives (path:rule:line, or commit:path:rule:line in range mode) in .gitleaksignore; .gitleaks.toml and .gitleaksignore are policy files, read from HEAD in the staged stages and from the base of a range, so a fingerprint is committed before the change it suppresses.`,
		Run:   run,
		Apart: true,
		// Excluding a path from the protocol rules does not make it a
		// place where secrets may be kept.
		SeesExcluded: true,
	}
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
		if ch.New == nil || ch.New.Kind == changes.KindSubmodule {
			// A symbolic link is scanned: git stores its target as a blob
			// and every checkout writes it.
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
	found := make([][]leaks.Finding, len(scanned))
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
			reportSecret(pass, scanned[i], f, commit)
		}
	}
	return nil
}

// secretsAdded returns the secrets a change adds: those its text shows (a
// symbolic link's target), then, for a regular file, those only its
// decoded YAML values do, then those only the unescaped text of a JSON or
// Markdown file does.
func secretsAdded(pass *rules.Pass, ch changes.Change, commit string) ([]leaks.Finding, error) {
	part := leaks.Part{Path: ch.Path, Data: ch.New.Data, Commit: commit, Protocol: governed(ch)}
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
	var out []leaks.Finding
	for _, f := range raw {
		if pass.Unit.Mode == changes.ModeTree || addsTo(ch, f) {
			out = append(out, f)
		}
	}
	if ch.New.Regular() != nil {
		// No reader takes a link's target for YAML, JSON or Markdown.
		return out, nil
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
	if id := family + "/" + rule; id != credentialKeyID {
		return id
	}
	return family + "/gitleaks:" + rule
}

// message says what was found, in a file of the given kind, without the
// secret, with the fingerprint that suppresses it.
func message(f leaks.Finding, kind changes.Kind, commit string) string {
	found := "possible secret (" + strings.TrimSuffix(f.Description, ".") + ")"
	if kind == changes.KindSymlink {
		found += " in the target of a symbolic link"
	}
	if f.Encoding != "" {
		found += ", decoded from " + f.Encoding
	}
	if f.Preview != "" {
		found += ": " + f.Preview
	}
	fp := f.Fingerprint
	if commit != "" {
		fp = commit + ":" + fp
	}
	return found + ", fingerprint " + fp
}

// secretHint says how to fix or suppress a secret finding; commit is the
// commit that adds it, "" for a change not committed yet.
func secretHint(commit string) string {
	const suppress = "if it is a false positive, add `gitleaks:allow` to its line, or commit its fingerprint to .gitleaksignore first (a policy file applies from the next commit, and a range reads it from its base)"
	if commit == "" {
		return "remove it and rotate the credential; " + suppress
	}
	short := commit[:min(12, len(commit))]
	return "rotate the credential, and take it out of the branch's history: a later commit that removes it leaves it in " + short +
		" (git rebase -i " + short + "~1, mark it edit, git reset --soft HEAD~1, remove it, commit, git rebase --continue); if the branch was pushed, a human then commits `git commit --allow-empty -m \"<subject>\" -m \"Small-Rewrite: <reason>\"` and pushes with --force-with-lease (docs/secrets.md); " + suppress
}
