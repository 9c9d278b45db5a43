// Package secrets holds the rules of the secrets family, which keep
// secrets out of agent state: secrets (gitleaks' rules, each finding
// reported as secrets/<gitleaks rule id>) and secrets/credential-key
// (literal values under credential-named keys). Each rule is in the file
// named after it (secrets.go for the family's own rule); the other files
// hold what they share: lines.go (the lines a change adds), yaml.go and
// decoded.go (YAML values as YAML decodes them), plain.go (the lines that
// decode to their own text), escaped.go (JSON escapes, and the views of a
// file its format's readers have), rendered.go (Markdown as it renders)
// and allow.go (when a gitleaks:allow marker counts: who wrote it).
package secrets

import "github.com/small-hook/small-hook/rules"

// Rules returns the secret rules, freshly built: gitleaks' rules as one
// family, and the credential-named keys.
func Rules() []*rules.Rule {
	return []*rules.Rule{secretsRule(), credentialKeyRule()}
}
