package config

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// Error is a problem in the configuration file, at a line.
type Error struct {
	Line int
	Msg  string
}

// Error returns "line N: message".
func (e *Error) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Load reads a .small-hook.yml. Unknown keys, wrong types and values
// outside their sets are errors: a typo must never silently weaken a check.
func Load(data []byte) (*Config, error) {
	cfg := Default()
	doc, err := yamldoc.Decode(data)
	if err != nil {
		var ye *yamldoc.Error
		if errors.As(err, &ye) {
			return nil, &Error{Line: max(ye.Line, 1), Msg: ye.Msg}
		}
		return nil, err
	}
	if doc.Value == nil {
		return cfg, nil
	}
	l := loader{doc: doc}
	top, ok := doc.Value.(map[string]any)
	if !ok {
		return nil, l.fail(nil, "the configuration must be a mapping")
	}
	if err := l.keys(nil, top, "attribution", "secrets", "smp", "signatures", "ledger", "push", "rules", "exclude"); err != nil {
		return nil, err
	}
	if err := l.rules(top, cfg); err != nil {
		return nil, err
	}
	if err := l.exclude(top, cfg); err != nil {
		return nil, err
	}
	if err := l.attribution(top, &cfg.Attribution); err != nil {
		return nil, err
	}
	if m, err := l.section(top, "secrets", "scope"); err != nil {
		return nil, err
	} else if err := l.choice(m, []string{"secrets", "scope"}, &cfg.Secrets.Scope, "governed", "staged"); err != nil {
		return nil, err
	}
	if m, err := l.section(top, "smp", "sync-replace"); err != nil {
		return nil, err
	} else if err := l.choice(m, []string{"smp", "sync-replace"}, &cfg.SMP.SyncReplace, "error", "warning"); err != nil {
		return nil, err
	}
	if err := l.signatures(top, &cfg.Signatures); err != nil {
		return nil, err
	}
	if err := l.ledger(top, &cfg.Ledger); err != nil {
		return nil, err
	}
	if err := l.push(top, &cfg.Push); err != nil {
		return nil, err
	}
	return cfg, nil
}

type loader struct{ doc *yamldoc.Doc }

func (l loader) fail(at []string, format string, args ...any) error {
	return &Error{Line: l.doc.KeyLine(at...), Msg: fmt.Sprintf(format, args...)}
}

// keys rejects keys of m (at path at) that are not allowed.
func (l loader) keys(at []string, m map[string]any, allowed ...string) error {
	var names []string
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if !contains(allowed, k) {
			return l.fail(append(append([]string{}, at...), k), "unknown key %q in %s (known: %s)", k, where(at), strings.Join(allowed, ", "))
		}
	}
	return nil
}

// where names a key path for messages, indexes in brackets:
// attribution.agents[0].name.
func where(at []string) string {
	if len(at) == 0 {
		return "the top level"
	}
	var b strings.Builder
	for i, tok := range at {
		switch {
		case tok != "" && strings.Trim(tok, "0123456789") == "":
			b.WriteString("[" + tok + "]")
		case i > 0:
			b.WriteString("." + tok)
		default:
			b.WriteString(tok)
		}
	}
	return b.String()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// section returns the mapping under key (nil when absent) after checking
// its keys.
func (l loader) section(top map[string]any, key string, allowed ...string) (map[string]any, error) {
	v, ok := top[key]
	if !ok || v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, l.fail([]string{key}, "%s must be a mapping", key)
	}
	return m, l.keys([]string{key}, m, allowed...)
}

// choice sets *dst from the string at the last element of at, which must
// be one of the options.
func (l loader) choice(m map[string]any, at []string, dst *string, options ...string) error {
	v, ok := m[at[len(at)-1]]
	if !ok {
		return nil
	}
	s, isString := v.(string)
	if !isString || !contains(options, s) {
		return l.fail(at, "%s must be one of %s", strings.Join(at, "."), strings.Join(options, ", "))
	}
	*dst = s
	return nil
}

func (l loader) attribution(top map[string]any, a *Attribution) error {
	m, err := l.section(top, "attribution", "agents", "trailers", "unknown")
	if err != nil || m == nil {
		return err
	}
	if err := l.choice(m, []string{"attribution", "unknown"}, &a.Unknown, "human", "agent", "error"); err != nil {
		return err
	}
	if v, ok := m["trailers"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return l.fail([]string{"attribution", "trailers"}, "attribution.trailers must be a list of trailer keys")
		}
		for i, t := range list {
			s, ok := t.(string)
			if !ok || !isTrailerKey(s) {
				return l.fail([]string{"attribution", "trailers", fmt.Sprint(i)}, "attribution.trailers[%d] must be a trailer key such as X-Agent (ASCII letters, digits and dashes, without the colon)", i)
			}
			a.Trailers = append(a.Trailers, s)
		}
	}
	if v, ok := m["agents"]; ok && v != nil {
		list, ok := v.([]any)
		if !ok {
			return l.fail([]string{"attribution", "agents"}, "attribution.agents must be a list of {email: GLOB}, {name: GLOB} or {pusher: GLOB}")
		}
		for i, item := range list {
			at := []string{"attribution", "agents", fmt.Sprint(i)}
			id, err := l.identity(at, item)
			if err != nil {
				return err
			}
			a.Agents = append(a.Agents, id)
		}
	}
	return nil
}

func (l loader) identity(at []string, item any) (Identity, error) {
	m, ok := item.(map[string]any)
	if !ok {
		return Identity{}, l.fail(at, "an agent identity is a mapping with email and/or name, or with pusher")
	}
	if err := l.keys(at, m, "email", "name", "pusher"); err != nil {
		return Identity{}, err
	}
	var id Identity
	for _, f := range []struct {
		key string
		dst *string
	}{{"email", &id.Email}, {"name", &id.Name}, {"pusher", &id.Pusher}} {
		key, dst := f.key, f.dst
		v, ok := m[key]
		if !ok {
			continue
		}
		s, isString := v.(string)
		if !isString || strings.TrimSpace(s) == "" {
			return Identity{}, l.fail(append(at, key), "%s must be a non-empty glob pattern (* and ? are wildcards)", where(append(at, key)))
		}
		*dst = s
	}
	if id.Pusher != "" && (id.Email != "" || id.Name != "") {
		return Identity{}, l.fail(append(at, "pusher"), "%s names a server account: give it an entry of its own, without email and name", where(append(at, "pusher")))
	}
	if id.Email == "" && id.Name == "" && id.Pusher == "" {
		return Identity{}, l.fail(at, "an agent identity needs email or name, or pusher")
	}
	return id, nil
}

// isTrailerKey reports whether s can be the key of a commit trailer as git
// recognises it: ASCII letters, digits and dashes.
func isTrailerKey(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
