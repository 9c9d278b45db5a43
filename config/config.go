// Package config loads the repository's optional .small-hook.yml.
package config

// FileName is the configuration file's name at the repository root.
const FileName = ".small-hook.yml"

// Config is the repository's small-hook configuration. The zero value is
// not the default: use Default.
type Config struct {
	Attribution Attribution
	Secrets     Secrets
	SMP         SMP
	// Rules changes rules' severities by rule ID (see RuleSetting); nil
	// keeps every rule's default.
	Rules map[string]RuleSetting
	// Exclude lists path patterns that no protocol rule governs (see
	// Excluded).
	Exclude []string
}

// Attribution configures how changes are attributed to humans or agents.
type Attribution struct {
	// Agents are extra agent identities: glob patterns on the name or the
	// e-mail of an author, committer or co-author.
	Agents []Identity
	// Trailers are extra trailer keys whose presence marks an agent.
	Trailers []string
	// Unknown is what an undecided change counts as: "human" (default),
	// "agent" or "error".
	Unknown string
}

// Identity is one agent identity pattern; an empty field matches anything.
type Identity struct {
	Email string
	Name  string
}

// Secrets configures secret detection.
type Secrets struct {
	// Scope is "governed" (default: .small/, artifacts/, .awp/) or "staged"
	// (every file of the change).
	Scope string
}

// SMP configures the Shared Memory Protocol rules.
type SMP struct {
	// SyncReplace makes the replacement of a trailing `synced` provenance
	// entry (what `awp sync pull` does on a fast-forward) a warning instead
	// of an error.
	SyncReplace string
}

// Default returns the configuration used when the repository has none.
func Default() *Config {
	return &Config{
		Attribution: Attribution{Unknown: "human"},
		Secrets:     Secrets{Scope: "governed"},
		SMP:         SMP{SyncReplace: "error"},
	}
}
