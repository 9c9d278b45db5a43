package rules

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/config"
)

// policy is the repository configuration as the driver applies it to
// rules: severities set or turned off by rule ID, and excluded paths. No
// rule needs to know about either.
type policy struct {
	cfg *config.Config
	// runs holds the IDs of the rules that run.
	runs map[string]bool
	// err is set when a setting names no rule.
	err error
}

func newPolicy(cfg *config.Config, all []*Rule) *policy {
	p := &policy{cfg: cfg, runs: map[string]bool{}, err: ValidateSettings(cfg, all)}
	for _, r := range all {
		p.runs[r.ID] = p.enabled(r)
	}
	return p
}

// ValidateSettings checks that every rule ID the configuration sets names
// one of the rules, or a member of a rule family (secrets/<name>). The
// error is a *config.Error at the setting's line.
func ValidateSettings(cfg *config.Config, all []*Rule) error {
	var unknown []string
	for id := range cfg.Rules {
		if Lookup(all, id) == nil {
			unknown = append(unknown, id)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.SortFunc(unknown, func(a, b string) int {
		return cmp.Or(cmp.Compare(cfg.Rules[a].Line, cfg.Rules[b].Line), cmp.Compare(a, b))
	})
	msg := fmt.Sprintf("rules: %q is not a rule small-hook knows", unknown[0])
	if s := Suggest(all, unknown[0]); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return &config.Error{Line: cfg.Rules[unknown[0]].Line, Msg: msg + " (`small-hook rules` lists every rule ID)"}
}

// enabled reports whether r runs: the configuration turns it on or off;
// otherwise it runs unless it is off by default. A family runs while the
// configuration turns any of its members on.
func (p *policy) enabled(r *Rule) bool {
	on := !r.OffByDefault
	if s, ok := p.cfg.Rules[r.ID]; ok {
		on = s.Severity != config.SeverityOff
	}
	if on || strings.Contains(r.ID, "/") {
		return on
	}
	for id, s := range p.cfg.Rules {
		if strings.HasPrefix(id, r.ID+"/") && s.Severity != config.SeverityOff {
			return true
		}
	}
	return false
}

// severity returns the severity of a finding that rule r reports under id
// at sev, and false when the configuration turns id off. The setting for
// id itself wins over the setting for r's family.
func (p *policy) severity(r *Rule, id string, sev Severity) (Severity, bool) {
	s, ok := p.setting(r, id)
	switch {
	case !ok:
		return sev, true
	case s.Severity == config.SeverityOff:
		return sev, false
	}
	return Severity(s.Severity), true
}

// setting is what the configuration sets for the findings rule r reports
// under id: the setting for id itself, else the one for r's family; false
// when it sets neither.
func (p *policy) setting(r *Rule, id string) (config.RuleSetting, bool) {
	s, ok := p.cfg.Rules[id]
	if !ok && id != r.ID {
		s, ok = p.cfg.Rules[r.ID]
	}
	return s, ok
}

// judges reports whether r judges path: excluded paths are only judged by
// rules that see them.
func (p *policy) judges(r *Rule, path string) bool {
	return r.SeesExcluded || !p.cfg.Excluded(path)
}

// governed returns u without the changes to excluded paths, or u itself
// when nothing is excluded.
func (p *policy) governed(u *changes.Unit) *changes.Unit {
	if len(p.cfg.Exclude) == 0 {
		return u
	}
	g := *u
	g.Changes = nil
	for _, ch := range u.Changes {
		if !p.cfg.Excluded(ch.Path) {
			g.Changes = append(g.Changes, ch)
		}
	}
	if len(g.Changes) == len(u.Changes) {
		return u
	}
	return &g
}
