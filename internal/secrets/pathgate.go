package secrets

import (
	"fmt"
	"sync"

	"github.com/zricethezav/gitleaks/v8/config"
)

// pathGate decides what gitleaks decides for every fragment it is handed,
// before scanning it: whether a global allowlist that matches on any
// condition skips the file by its path. gitleaks' joined path patterns
// cost tens of microseconds a path, as much as scanning a small file: for
// a commit of thousands of small files, more than the rules. The
// detectors hold those allowlists without their path patterns (see
// withoutPathPatterns), and the gate is asked only about a file in which
// something was found, once per path: a skipped file yields nothing
// either way. An allowlist whose paths must match together with something
// else (condition AND) keeps them, as its verdict depends on more than the
// path.
type pathGate struct {
	allowlists []*config.Allowlist
	mu         sync.Mutex
	seen       map[string]bool
}

// skips reports whether the global allowlists skip the file at path.
func (g *pathGate) skips(path string) bool {
	if len(g.allowlists) == 0 || path == "" {
		return false
	}
	g.mu.Lock()
	skip, ok := g.seen[path]
	g.mu.Unlock()
	if ok {
		return skip
	}
	for _, a := range g.allowlists {
		if a.PathAllowed(path) {
			skip = true
			break
		}
	}
	g.mu.Lock()
	if g.seen == nil {
		g.seen = map[string]bool{}
	}
	g.seen[path] = skip
	g.mu.Unlock()
	return skip
}

// withoutPathPatterns returns the global allowlists with the path
// patterns of those matching on any condition taken out, and those path
// patterns as allowlists of their own, for a pathGate. An allowlist left
// with nothing to check is dropped.
func withoutPathPatterns(lists []*config.Allowlist) (rest, paths []*config.Allowlist, err error) {
	for _, a := range lists {
		if a.MatchCondition == config.AllowlistMatchAnd || len(a.Paths) == 0 {
			rest = append(rest, a)
			continue
		}
		paths = append(paths, a)
		if len(a.Commits) == 0 && len(a.Regexes) == 0 && len(a.StopWords) == 0 {
			continue
		}
		// Validate compiled the paths into a pattern the copy would keep:
		// a new allowlist, validated without them.
		b := &config.Allowlist{
			Description:    a.Description,
			MatchCondition: a.MatchCondition,
			Commits:        a.Commits,
			RegexTarget:    a.RegexTarget,
			Regexes:        a.Regexes,
			StopWords:      a.StopWords,
		}
		if err := b.Validate(); err != nil {
			return nil, nil, err
		}
		rest = append(rest, b)
	}
	return rest, paths, nil
}

// newPathGate compiles the global allowlists of vc, with the rules in
// included that they need, and keeps the path patterns a pathGate
// evaluates. A bad regular expression makes gitleaks
// panic: that becomes an error naming the file.
func newPathGate(vc *config.ViperConfig, included map[string]bool, name string) (gate *pathGate, err error) {
	defer func() {
		if r := recover(); r != nil {
			gate, err = nil, fmt.Errorf("%s: invalid gitleaks configuration: %v", name, r)
		}
	}()
	_, paths, err := translate(vc, included, true, name)
	if err != nil {
		return nil, err
	}
	return &pathGate{allowlists: paths}, nil
}
