// Package secrets finds secrets in content about to be committed, with
// gitleaks' rules, and never lets a secret value out of the package.
package secrets

// Scanner finds secrets. It builds gitleaks' detector the first time it has
// content to scan, and only then.
type Scanner struct{}
