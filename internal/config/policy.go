package config

// gitleaks' files at the repository root, which configure small-hook's
// secret detection.
const (
	// GitleaksConfig is gitleaks' rules and allowlists.
	GitleaksConfig = ".gitleaks.toml"
	// GitleaksIgnore lists the fingerprints of findings to ignore.
	GitleaksIgnore = ".gitleaksignore"
)

// Baseline is the file at the repository root that records, by
// fingerprint, the findings on commits of the history a repository had
// when it adopted small-hook (see internal/baseline): a human writes it
// with `small-hook check --history --write-baseline`.
const Baseline = ".small-hook-baseline"

// PolicyFiles lists the repository files that configure the guard: the
// configuration (FileName, and File when another file of the repository
// holds it), gitleaks' configuration and ignore file, the baseline of the
// adopted history, and the key files the signatures section names. A check reads them from the revision it
// trusts, never from the change it judges, and they are human-owned: an
// agent that changes one could relax the checks that judge it next.
func (c *Config) PolicyFiles() []string {
	out := []string{FileName, GitleaksConfig, GitleaksIgnore, Baseline}
	for _, p := range []string{c.File, c.Signatures.AllowedSigners, c.Signatures.OpenPGPKeys} {
		if p != "" && !contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}
