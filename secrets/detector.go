package secrets

import (
	"bufio"
	"bytes"
	"fmt"
	"sort"
	"strings"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/pelletier/go-toml/v2"
	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/config"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// detectorFor returns a detector with every rule that could match content:
// the rules whose keywords occur in it, and those without keywords.
// Compiling gitleaks' 200-odd regular expressions is most of its start-up
// cost, so only the rules the content calls for are compiled; a later scan
// that needs more rules rebuilds the detector with them added.
func (s *Scanner) detectorFor(content []byte) (*detect.Detector, error) {
	if err := s.load(); err != nil {
		return nil, err
	}
	missing := false
	for id := range s.wanted(bytes.ToLower(content)) {
		if !s.included[id] {
			missing = true
			s.included[id] = true
		}
	}
	if s.detector != nil && !missing {
		return s.detector, nil
	}
	s.detector, s.err = compile(s.rules, s.included, s.opts.ConfigPath)
	return s.detector, s.err
}

// load parses the configuration once.
func (s *Scanner) load() error {
	if s.rules != nil || s.err != nil {
		return s.err
	}
	// gitleaks' trace logs print secrets: silence its logger.
	logging.Logger = zerolog.Nop()
	if s.rules, s.err = parseConfig(s.opts); s.err != nil {
		return s.err
	}
	s.ignore = parseIgnore(s.opts.Ignore)
	s.included = map[string]bool{}
	all := s.rules.Rules
	if s.rules.Extend.UseDefault {
		defaults, err := parseConfig(Options{ConfigPath: "gitleaks' default configuration"})
		if err != nil {
			s.err = err
			return err
		}
		all = append(all[:len(all):len(all)], defaults.Rules...)
	}
	builder := ahocorasick.NewTrieBuilder()
	s.blockPattern = map[int64]bool{}
	var n int64
	for _, r := range all {
		if len(r.Keywords) == 0 && r.Regex != "" {
			s.keywordless = true
		}
		for _, k := range r.Keywords {
			builder.AddString(strings.ToLower(k))
			if strings.Contains(strings.ToLower(r.Regex), "begin") {
				s.blockPattern[n] = true
			}
			n++
		}
	}
	s.trie = builder.Build()
	return nil
}

// blockContext is how many lines after a line that may open a block
// secret (a PEM private key) are scanned with it.
const blockContext = 128

// keywordLines narrows the selected lines (nil: all) of data, which starts
// at line first, to those that can hold a secret: lines holding a keyword
// of some rule, and the lines after one that may open a multi-line block.
// gitleaks runs a rule only where its keyword occurs, so lines without any
// keyword cannot produce a finding, and a large file with few keywords is
// scanned in a fraction of the time. One Aho-Corasick pass finds every
// keyword. A configuration with a content rule that has no keywords is
// scanned whole.
func (s *Scanner) keywordLines(data []byte, first int, lines []int) []int {
	if s.keywordless {
		return lines
	}
	starts := []int{0} // byte offset of each line of data
	for i, c := range data {
		if c == '\n' && i+1 < len(data) {
			starts = append(starts, i+1)
		}
	}
	hit := make([]bool, len(starts))
	block := make([]bool, len(starts))
	s.trie.Walk(bytes.ToLower(data), func(end, _, pattern int64) bool {
		line := sort.SearchInts(starts, int(end)+1) - 1
		hit[line] = true
		if s.blockPattern[pattern] {
			block[line] = true
		}
		return true
	})
	want := func(int) bool { return true }
	if lines != nil {
		set := make(map[int]bool, len(lines))
		for _, l := range lines {
			set[l] = true
		}
		want = func(n int) bool { return set[n] }
	}
	out := []int{}
	blockUntil := -1
	for i := range starts {
		n := first + i
		if !want(n) {
			continue
		}
		if block[i] {
			blockUntil = i + blockContext
		}
		if hit[i] || i <= blockUntil {
			out = append(out, n)
		}
	}
	if len(out) == 0 && (lines == nil || len(lines) > 0) {
		// Path rules still see the file.
		out = append(out, first)
	}
	return out
}

// wanted lists the rules content calls for, with the rules they depend on.
func (s *Scanner) wanted(lower []byte) map[string]bool {
	need := map[string]bool{}
	for _, r := range s.rules.Rules {
		if len(r.Keywords) == 0 {
			need[r.ID] = true
			continue
		}
		for _, k := range r.Keywords {
			if bytes.Contains(lower, []byte(strings.ToLower(k))) {
				need[r.ID] = true
				break
			}
		}
	}
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
	return need
}

// parseConfig reads the repository's .gitleaks.toml, or gitleaks' default
// rules, without compiling them.
func parseConfig(opts Options) (*config.ViperConfig, error) {
	raw := []byte(config.DefaultConfig)
	if opts.Config != nil {
		raw = opts.Config
	}
	// go-toml decodes gitleaks' configuration into the same structure as
	// gitleaks' own viper and mapstructure path (a test compares them), in
	// a sixth of the time.
	var vc config.ViperConfig
	if err := toml.Unmarshal(raw, &vc); err != nil {
		return nil, fmt.Errorf("%s: %w", opts.ConfigPath, err)
	}
	if vc.Extend.Path != "" || vc.Extend.URL != "" {
		return nil, fmt.Errorf("%s: [extend] path and url are not supported (small-hook reads only the repository's own file); use useDefault = true", opts.ConfigPath)
	}
	return &vc, nil
}

// compile builds a detector from the included rules. A configuration that
// extends the default rules is compiled whole: gitleaks merges the
// defaults in itself.
func compile(all *config.ViperConfig, included map[string]bool, path string) (det *detect.Detector, err error) {
	defer func() {
		// A bad regular expression makes gitleaks panic.
		if r := recover(); r != nil {
			det, err = nil, fmt.Errorf("%s: invalid gitleaks configuration: %v", path, r)
		}
	}()
	vc := *all
	if !vc.Extend.UseDefault {
		vc.Rules = nil
		for _, r := range all.Rules {
			if included[r.ID] {
				vc.Rules = append(vc.Rules, r)
			}
		}
	}
	cfg, err := vc.Translate()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	d := detect.NewDetector(cfg)
	d.Redact = 0 // the secret never leaves this package: Finding has no field for it
	return d, nil
}

// parseIgnore reads .gitleaksignore: one fingerprint a line, # comments.
func parseIgnore(data []byte) map[string]bool {
	ignore := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			ignore[l] = true
		}
	}
	return ignore
}
