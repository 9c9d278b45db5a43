package rules

import "github.com/small-hook/small-hook/internal/config"

// Settings applies the configuration to the findings of rules that a
// driver other than Checker runs (the ledger's, see Rule.Ledger), exactly
// as Checker applies it to the others: severities set by rule ID, rules
// turned off or on, excluded paths.
type Settings struct {
	policy *policy
	all    []*Rule
}

// NewSettings returns the settings cfg gives the rules of all; an ID in
// cfg that no rule of all has is an error (see ValidateSettings).
func NewSettings(cfg *config.Config, all []*Rule) (*Settings, error) {
	p := newPolicy(cfg, all)
	if p.err != nil {
		return nil, p.err
	}
	return &Settings{policy: p, all: all}, nil
}

// Setting returns what the configuration sets for the findings rule r
// reports under id (r.ID, or a member of r's family: a member's setting
// wins over its family's): config.SeverityOff, SeverityWarning or
// SeverityError; false when it sets nothing for them.
func (s *Settings) Setting(r *Rule, id string) (string, bool) {
	set, ok := s.policy.setting(r, id)
	return set.Severity, ok
}

// Apply returns f as the configuration leaves it, its severity set by the
// configuration, and false when the configuration turns f's rule off or
// excludes its path. f.Rule must be the ID of one of the rules.
func (s *Settings) Apply(f Finding) (Finding, bool) {
	r := Lookup(s.all, f.Rule)
	if r == nil || !s.policy.runs[r.ID] {
		return f, false
	}
	sev, keep := s.policy.severity(r, f.Rule, f.Severity)
	if !keep || !s.policy.judges(r, f.Path) {
		return f, false
	}
	f.Severity = sev
	return f, true
}
