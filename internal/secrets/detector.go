package secrets

import (
	"maps"
	"strings"
	"sync"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/zricethezav/gitleaks/v8/detect"
)

// detectorFor returns a detector with every rule in need (the rules whose
// keywords occur in the content to scan), those without keywords and the
// rules they depend on. Compiling gitleaks' 200-odd regular expressions is
// most of its start-up cost, so only the rules the content calls for are
// compiled; a later scan that needs more rules adds them.
func (s *Scanner) detectorFor(need map[string]bool) (*detect.Detector, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.detector != nil && s.holdsAll(need) {
		// The rules compiled so far hold their dependencies and every
		// rule without keywords: most scans need nothing new.
		return s.detector, nil
	}
	for _, r := range s.rules.Rules {
		if len(r.Keywords) == 0 {
			need[r.ID] = true
		}
	}
	s.dependencies(need)
	missing := false
	for id := range need {
		if !s.included[id] {
			missing = true
			s.included[id] = true
		}
	}
	if s.detector != nil && !missing {
		return s.detector, nil
	}
	s.detector, s.err = s.compiler.detector(s.included)
	return s.detector, s.err
}

// blockDetector returns a detector with only the rules whose matches span
// lines (see load), for the regions around their opening keywords: the
// other rules would cost there what they cost on a long line.
func (s *Scanner) blockDetector() (*detect.Detector, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.blocks != nil {
		return s.blocks, nil
	}
	need := maps.Clone(s.blockRules)
	s.dependencies(need)
	s.blocks, s.err = compile(s.rules, need, s.configName())
	return s.blocks, s.err
}

// configName names the configuration in use in messages.
func (s *Scanner) configName() string {
	if s.opts.Config == nil {
		return defaultConfigName
	}
	return s.opts.ConfigPath
}

// load parses the configuration and indexes its keywords, once. A rule
// whose pattern holds "begin" matches a block (-----BEGIN … PRIVATE
// KEY----- up to its END line), which is scanned apart (see find).
func (s *Scanner) load() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rules != nil || s.err != nil {
		return s.err
	}
	if s.rules, s.err = loadConfig(s.opts); s.err != nil {
		return s.err
	}
	s.ignore = parseIgnore(s.opts.Ignore)
	s.compiler = &compiler{vc: s.rules, name: s.configName()}
	// The gate is needed only once something is found: its allowlists
	// are not compiled a second time (the first detector holds them) on
	// a run that finds nothing.
	s.gate = sync.OnceValues(func() (*pathGate, error) {
		// Allowlists that target rules compile only with those rules.
		targeted := map[string]bool{}
		s.dependencies(targeted)
		s.compiler.required(targeted)
		return newPathGate(s.rules, targeted, s.configName())
	})
	s.included = map[string]bool{}
	s.blockKeywords = map[string]bool{}
	s.blockRules = map[string]bool{}
	s.keywordRules = map[string][]string{}
	builder := ahocorasick.NewTrieBuilder()
	for _, r := range s.rules.Rules {
		if len(r.Keywords) == 0 && r.Regex != "" {
			s.keywordless = true
		}
		block := r.Regex != "" && strings.Contains(strings.ToLower(r.Regex), "begin")
		if block {
			s.blockRules[r.ID] = true
		}
		for _, k := range r.Keywords {
			k = strings.ToLower(k)
			s.keywordSpansLines = s.keywordSpansLines || strings.Contains(k, "\n")
			builder.AddString(k)
			s.keywordRules[k] = append(s.keywordRules[k], r.ID)
			if block {
				s.blockKeywords[k] = true
			}
		}
	}
	s.trie = builder.Build()
	s.engine = newEngine(s.trie)
	return nil
}

// dependencies adds to need the rules that the rules in need require and
// the rules targeted allowlists name (gitleaks requires them).
func (s *Scanner) dependencies(need map[string]bool) {
	for _, r := range s.rules.Rules {
		if need[r.ID] {
			for _, req := range r.Required {
				need[req.ID] = true
			}
		}
	}
	for _, a := range s.rules.Allowlists {
		for _, id := range a.TargetRules {
			need[id] = true
		}
	}
}

// holdsAll reports whether every rule in need is compiled already.
func (s *Scanner) holdsAll(need map[string]bool) bool {
	for id := range need {
		if !s.included[id] {
			return false
		}
	}
	return true
}
