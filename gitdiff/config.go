package gitdiff

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/gitread"
)

// gitConfig is git's configuration as `git config --list` gives it: every
// setting of every file git reads (system, global, repository, worktree,
// includes and includeIf of every kind, `git -c`), in the order git reads
// them, so that the last value of a key is the one git uses.
type gitConfig struct {
	// values maps a key (section and name in lower case, the subsection
	// as written) to its values in order; a key written without "=" has
	// the value blankValue.
	values map[string][]string
}

// blankValue stands for a setting written without "=" (`gpgsign`), which
// a boolean reads as true; it cannot occur in a value git prints.
const blankValue = "\x00blank"

// gitConfig reads git's configuration once, on first need: a check that
// needs no setting runs no git command for it.
func (r *Repo) gitConfig() (*gitConfig, error) {
	if r.config != nil {
		return r.config, nil
	}
	out, err := r.git.Output("config", "--list", "-z")
	if err != nil {
		return nil, fmt.Errorf("reading git's configuration: %w", err)
	}
	c := &gitConfig{values: map[string][]string{}}
	for _, item := range bytes.Split(out, []byte{0}) {
		if len(item) == 0 {
			continue
		}
		key, value, hasValue := strings.Cut(string(item), "\n")
		if !hasValue {
			value = blankValue
		}
		c.values[configKey(key)] = append(c.values[configKey(key)], value)
	}
	r.config = c
	return c, nil
}

// configKey writes a key as `git config --list` does: the section and the
// name in lower case, the subsection as it is.
func configKey(key string) string {
	first, last := strings.IndexByte(key, '.'), strings.LastIndexByte(key, '.')
	if first < 0 {
		return strings.ToLower(key)
	}
	return strings.ToLower(key[:first]) + key[first:last] + strings.ToLower(key[last:])
}

// Config returns the value git uses for key (section.name or
// section.subsection.name, case as git ignores it): the last one set
// anywhere git reads its configuration, includes and conditional includes
// followed by git itself. ok is false when it is not set; a key set
// without a value ("[core]\n\tbare") reads as "".
func (r *Repo) Config(key string) (value string, ok bool, err error) {
	c, err := r.gitConfig()
	if err != nil {
		return "", false, err
	}
	v, ok := c.get(key)
	if v == blankValue {
		v = ""
	}
	return v, ok, nil
}

// get returns the last value of key and whether it is set.
func (c *gitConfig) get(key string) (string, bool) {
	v := c.values[configKey(key)]
	if len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

// string reads key as text: a key without a value is "".
func (c *gitConfig) string(key string) string {
	v, _ := c.get(key)
	if v == blankValue {
		return ""
	}
	return v
}

// bool reads key as git reads a boolean (config.c, git_config_bool).
func (c *gitConfig) bool(key string) (bool, error) {
	v, ok := c.get(key)
	if !ok {
		return false, nil
	}
	switch strings.ToLower(v) {
	case blankValue, "true", "yes", "on":
		return true, nil
	case "", "false", "no", "off":
		return false, nil
	}
	if n, ok := parseConfigInt(v); ok {
		return n != 0, nil
	}
	return false, fmt.Errorf("bad boolean config value %q for %q", v, key)
}

// parseConfigInt reads a number as git does, with an optional unit k, m
// or g (config.c, git_parse_signed).
func parseConfigInt(v string) (int64, bool) {
	unit := int64(1)
	if v != "" {
		switch strings.ToLower(v[len(v)-1:]) {
		case "k":
			unit, v = 1<<10, v[:len(v)-1]
		case "m":
			unit, v = 1<<20, v[:len(v)-1]
		case "g":
			unit, v = 1<<30, v[:len(v)-1]
		}
	}
	n, err := strconv.ParseInt(v, 0, 64)
	if err != nil || n > (1<<62)/unit || n < -(1<<62)/unit {
		return 0, false
	}
	return n * unit, true
}

// Author is the identity of the commit being made: GIT_AUTHOR_NAME and
// GIT_AUTHOR_EMAIL when git sets them (it does for hooks; during `git
// commit --amend` they name the amended commit's author), else what `git
// var GIT_AUTHOR_IDENT` says, which merges them with the configuration
// (user.*, author.*, EMAIL) as git does.
func (r *Repo) Author() changes.Identity {
	return r.identity("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_IDENT")
}

// Committer is the identity that makes the commit: GIT_COMMITTER_NAME and
// GIT_COMMITTER_EMAIL when set, else what `git var GIT_COMMITTER_IDENT`
// says. Unlike the author, it is never copied from the commit that `git
// commit --amend` replaces.
func (r *Repo) Committer() changes.Identity {
	return r.identity("GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_IDENT")
}

// identity is the environment's identity when it names both parts, else
// git's. When git knows none (no name or e-mail configured), it is what the
// environment says.
func (r *Repo) identity(nameVar, emailVar, ident string) changes.Identity {
	id := changes.Identity{Name: r.opts.Env(nameVar), Email: r.opts.Env(emailVar)}
	if id.Name != "" && id.Email != "" {
		return id
	}
	out, err := r.git.Line("var", ident)
	if err != nil {
		return id
	}
	s := gitread.SplitIdentity([]byte(out))
	return changes.Identity{Name: s.Name, Email: s.Email}
}
