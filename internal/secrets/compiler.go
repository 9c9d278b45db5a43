package secrets

import (
	"fmt"
	"maps"
	"slices"

	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// compiler compiles the rules of a configuration as content calls for
// them, each once. gitleaks' Translate compiles every rule and allowlist it
// is handed, and the allowlists alone (the default generic-api-key rule's
// thousand-odd stop words, the global path patterns) cost milliseconds: a
// run whose content calls for new rules several times would pay for all of
// them again each time. The first compilation takes the global allowlists
// and every rule that an allowlist targets (dependencies adds those to
// every request); later ones only the new rules and the rules they
// require, merged into what was compiled.
type compiler struct {
	vc   *config.ViperConfig
	name string
	cfg  *config.Config
}

// detector returns a detector with every rule in included.
func (c *compiler) detector(included map[string]bool) (det *detect.Detector, err error) {
	defer func() {
		if r := recover(); r != nil {
			det, err = nil, fmt.Errorf("%s: invalid gitleaks configuration: %v", c.name, r)
		}
	}()
	todo := map[string]bool{}
	for id := range included {
		if c.cfg == nil || !hasRule(c.cfg, id) {
			todo[id] = true
		}
	}
	switch {
	case c.cfg == nil:
		cfg, _, err := translate(c.vc, todo, true, c.name)
		if err != nil {
			return nil, err
		}
		c.cfg = &cfg
	case len(todo) > 0:
		c.required(todo)
		more, _, err := translate(c.vc, todo, false, c.name)
		if err != nil {
			return nil, err
		}
		// A new configuration: the detectors built before share the old
		// one's maps and may be scanning on other goroutines.
		cfg := *c.cfg
		cfg.Rules, cfg.Keywords = maps.Clone(cfg.Rules), maps.Clone(cfg.Keywords)
		cfg.OrderedRules = slices.Clone(cfg.OrderedRules)
		// A required rule compiled before keeps its first compilation,
		// which holds the allowlists that target it.
		for id, r := range more.Rules {
			if !hasRule(&cfg, id) {
				cfg.Rules[id] = r
				cfg.OrderedRules = append(cfg.OrderedRules, id)
			}
		}
		maps.Copy(cfg.Keywords, more.Keywords)
		c.cfg = &cfg
	}
	d := detect.NewDetector(*c.cfg)
	configure(d)
	return d, nil
}

// configure sets a detector as the gitleaks CLI's defaults set it, its
// decoder on to the CLI's depth (see maxDecodeDepth), but for one thing:
// a match on a line that carries gitleaks:allow is kept, as a marker
// counts only where the judged change did not write it or a human did
// (the caller judges that: see Finding).
func configure(d *detect.Detector) {
	d.MaxDecodeDepth = maxDecodeDepth
	d.IgnoreGitleaksAllow = true
}

// required adds to todo the rules its rules require, which Translate
// wants in the same configuration.
func (c *compiler) required(todo map[string]bool) {
	for grew := true; grew; {
		grew = false
		for _, r := range c.vc.Rules {
			if !todo[r.ID] {
				continue
			}
			for _, req := range r.Required {
				if !todo[req.ID] {
					todo[req.ID], grew = true, true
				}
			}
		}
	}
}

func hasRule(cfg *config.Config, id string) bool {
	_, ok := cfg.Rules[id]
	return ok
}
