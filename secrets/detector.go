package secrets

import (
	"bytes"
	"sort"
	"strings"

	ahocorasick "github.com/BobuSumisu/aho-corasick"
	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/logging"
)

// blockContext is how many lines after a line that may open a block
// secret (a PEM private key) are scanned with it.
const blockContext = 128

// detectorFor returns a detector with every rule that could match content:
// the rules whose keywords occur in it, and those without keywords.
// Compiling gitleaks' 200-odd regular expressions is most of its start-up
// cost, so only the rules the content calls for are compiled; a later scan
// that needs more rules rebuilds the detector with them added.
func (s *Scanner) detectorFor(content []byte) (*detect.Detector, error) {
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
	s.detector, s.err = compile(s.rules, s.included, s.configName())
	return s.detector, s.err
}

// configName names the configuration in use in messages.
func (s *Scanner) configName() string {
	if s.opts.Config == nil {
		return defaultConfigName
	}
	return s.opts.ConfigPath
}

// load parses the configuration and indexes its keywords, once.
func (s *Scanner) load() error {
	if s.rules != nil || s.err != nil {
		return s.err
	}
	// gitleaks' trace logs print secrets: silence its logger.
	logging.Logger = zerolog.Nop()
	if s.rules, s.err = loadConfig(s.opts); s.err != nil {
		return s.err
	}
	s.ignore = parseIgnore(s.opts.Ignore)
	s.included = map[string]bool{}
	builder := ahocorasick.NewTrieBuilder()
	s.blockPattern = map[int64]bool{}
	var n int64
	for _, r := range s.rules.Rules {
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

// keywordLines narrows the selected lines (nil: all) of data, which starts
// at line first, to those that can hold a secret: lines holding a keyword
// of some rule, the line after each (a value may follow its key on the
// next line), and the lines after one that may open a multi-line block.
// gitleaks runs a rule only where its keyword occurs, so other lines cannot
// produce a finding, and a large file with few keywords is scanned in a
// fraction of the time. One Aho-Corasick pass finds every keyword. A
// configuration with a content rule that has no keywords is scanned whole.
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
	until := -1
	for i := range starts {
		if hit[i] {
			until = max(until, i+1)
		}
		if block[i] {
			until = max(until, i+blockContext)
		}
		if n := first + i; want(n) && i <= until {
			out = append(out, n)
		}
	}
	if len(out) == 0 && (lines == nil || len(lines) > 0) {
		// Path rules still see the file.
		out = append(out, first)
	}
	return out
}

// wanted lists the rules content calls for, with the rules they depend on
// and the rules targeted allowlists name (gitleaks requires them).
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
