package config

import (
	"sort"
	"strings"
)

// The severities .small-hook.yml can give a rule.
const (
	SeverityOff     = "off"
	SeverityWarning = "warning"
	SeverityError   = "error"
)

// RuleSetting is what .small-hook.yml says about one rule ID.
type RuleSetting struct {
	// Severity is SeverityOff, SeverityWarning or SeverityError.
	Severity string
	// Line is where the setting is written. Only the rules driver knows
	// which IDs exist; it reports an ID that names no rule at this line.
	Line int
}

// rules loads the rules section: a mapping of rule ID to a severity.
func (l loader) rules(top map[string]any, cfg *Config) error {
	v, ok := top["rules"]
	if !ok || v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return l.fail([]string{"rules"}, "rules must be a mapping of rule ID to off, warning or error, e.g. rules: {small/human-edit: warning}")
	}
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	cfg.Rules = map[string]RuleSetting{}
	for _, id := range ids {
		at := []string{"rules", id}
		if !isRuleID(id) {
			return l.fail(at, "%q is not a rule ID: IDs are family/name as `small-hook rules` lists them (smp/version), or a family alone (secrets)", id)
		}
		s, isString := m[id].(string)
		if !isString || !contains([]string{SeverityOff, SeverityWarning, SeverityError}, s) {
			return l.fail(at, "rules.%s must be off, warning or error", id)
		}
		cfg.Rules[id] = RuleSetting{Severity: s, Line: l.doc.KeyLine(at...)}
	}
	return nil
}

// isRuleID reports whether s is spelled like a rule ID: a family of
// lower-case letters, digits and dashes, optionally followed by a slash and
// a name that may also hold upper-case letters, dots and underscores (as
// gitleaks rule IDs can).
func isRuleID(s string) bool {
	family, name, hasName := strings.Cut(s, "/")
	if !isWord(family, false) {
		return false
	}
	return !hasName || isWord(name, true)
}

// isWord reports whether s is a non-empty run of lower-case ASCII letters,
// digits and dashes starting with a letter or digit; loose also allows
// upper-case letters, dots and underscores.
func isWord(s string, loose bool) bool {
	if s == "" || s[0] == '-' || s[0] == '.' || s[0] == '_' {
		return false
	}
	for _, c := range []byte(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-':
		case loose && (c >= 'A' && c <= 'Z' || c == '.' || c == '_'):
		default:
			return false
		}
	}
	return true
}
