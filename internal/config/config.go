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
	Signatures  Signatures
	// Ledger configures what `small-hook log` checks (see Ledger).
	Ledger Ledger
	// Push configures what a push may not do (see Push).
	Push Push
	// Rules changes rules' severities by rule ID (see RuleSetting); nil
	// keeps every rule's default.
	Rules map[string]RuleSetting
	// Exclude lists path patterns that no protocol rule governs (see
	// Excluded).
	Exclude []string
	// File is the repository path of the file this configuration was read
	// from when it is not FileName (--config naming a file inside the
	// repository); empty otherwise. It is a policy file (see PolicyFiles).
	File string
}

// Attribution configures how changes are attributed to humans or agents.
type Attribution struct {
	// Agents are extra agent identities: glob patterns on the name or the
	// e-mail of an author, committer or co-author, or on the account a
	// server authenticated as the pusher.
	Agents []Identity
	// Trailers are extra trailer keys whose presence marks an agent.
	Trailers []string
	// Unknown is what an undecided change counts as: "human" (default),
	// "agent" or "error".
	Unknown string
}

// Identity is one agent identity pattern; an empty field matches anything.
// An entry with Pusher names a server account and nothing else.
type Identity struct {
	Email string
	Name  string
	// Pusher is a glob pattern on the account a server authenticated as the
	// pusher (the pre-receive hook): every commit such an account pushes is
	// an agent's.
	Pusher string
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

// Signatures configures which keys may sign commits and which changes need
// a signature made with one of them.
type Signatures struct {
	// AllowedSigners is the path, relative to the repository root and
	// slash-separated, of a file in git's gpg.ssh.allowedSignersFile format
	// (SSH keys); empty when not configured.
	AllowedSigners string
	// OpenPGPKeys is the path, relative to the repository root and
	// slash-separated, of a file of armored OpenPGP public keys; empty when
	// not configured.
	OpenPGPKeys string
	// Require is "off" (default: signatures are not required), "human-owned"
	// (a change to a human-owned file needs a valid signature by an allowed
	// key) or "human" (every change attributed to a human needs one). Any
	// value but "off" comes with at least one of the two key files.
	Require string
}

// Default returns the configuration used when the repository has none.
func Default() *Config {
	return &Config{
		Attribution: Attribution{Unknown: "human"},
		Secrets:     Secrets{Scope: "governed"},
		SMP:         SMP{SyncReplace: "error"},
		Signatures:  Signatures{Require: "off"},
		Push:        Push{ReplaceRefs: "refuse"},
		Ledger:      defaultLedger(),
	}
}
