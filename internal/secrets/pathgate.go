package secrets

import (
	"fmt"
	"strings"
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
// path. For a file of protocol state (Part.Protocol) the gate leaves out
// gitleaks' built-in allowlists: an agent that names its file
// .awp/notes.pdf or .awp/node_modules/x.md would otherwise hide a key in
// governed state.
type pathGate struct {
	allowlists []*config.Allowlist
	// builtIn marks the allowlists that are gitleaks' own (its default
	// configuration's), worked out the first time protocol state meets
	// the gate.
	builtIn func() []bool
	mu      sync.Mutex
	seen    map[gateKey]bool
}

// gateKey is a path asked about, as protocol state or not.
type gateKey struct {
	path     string
	protocol bool
}

// skips reports whether the global allowlists skip the file at path, of
// protocol state when protocol is set.
func (g *pathGate) skips(path string, protocol bool) bool {
	if len(g.allowlists) == 0 || path == "" {
		return false
	}
	key := gateKey{path, protocol}
	g.mu.Lock()
	skip, ok := g.seen[key]
	g.mu.Unlock()
	if ok {
		return skip
	}
	var builtIn []bool
	if protocol {
		builtIn = g.builtIn()
	}
	for i, a := range g.allowlists {
		if (builtIn == nil || !builtIn[i]) && a.PathAllowed(path) {
			skip = true
			break
		}
	}
	g.mu.Lock()
	if g.seen == nil {
		g.seen = map[gateKey]bool{}
	}
	g.seen[key] = skip
	g.mu.Unlock()
	return skip
}

// builtInAmong marks which of lists are gitleaks' built-in path
// allowlists: those whose patterns are, one for one, those of an allowlist
// of gitleaks' default configuration.
func builtInAmong(lists []*config.Allowlist) ([]bool, error) {
	defaults, err := parseConfig([]byte(config.DefaultConfig), defaultConfigName)
	if err != nil {
		return nil, err
	}
	_, paths, err := translate(defaults, nil, true, defaultConfigName)
	if err != nil {
		return nil, err
	}
	patterns := func(a *config.Allowlist) string {
		var b strings.Builder
		for _, p := range a.Paths {
			b.WriteString(p.String())
			b.WriteByte(0)
		}
		return b.String()
	}
	own := map[string]bool{}
	for _, a := range paths {
		own[patterns(a)] = true
	}
	marks := make([]bool, len(lists))
	for i, a := range lists {
		marks[i] = own[patterns(a)]
	}
	return marks, nil
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
	return &pathGate{allowlists: paths, builtIn: sync.OnceValue(func() []bool {
		marks, err := builtInAmong(paths)
		if err != nil {
			// gitleaks' own configuration always loads; should it not,
			// every allowlist counts as gitleaks' own: protocol state is
			// then scanned whatever its path.
			marks = make([]bool, len(paths))
			for i := range marks {
				marks[i] = true
			}
		}
		return marks
	})}, nil
}
