package gitdiff

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/gcfg"
)

// maxIncludeDepth is how deeply git follows include.path (config.c).
const maxIncludeDepth = 10

// gitConfig is git's configuration as one list of settings in the order
// git reads them, so that the last value of a key wins, as it does for git.
type gitConfig struct {
	// values maps a key (section.name or section.subsection.name, section
	// and name in lower case) to its values in order; a value without "="
	// is recorded as blankValue.
	values map[string][]string
}

// blankValue stands for an option written without "=" (`gpgsign`), which a
// boolean reads as true; it cannot occur in a file, whose values are text.
const blankValue = "\x00blank"

// get returns the last value of key and whether it is set.
func (c *gitConfig) get(key string) (string, bool) {
	v := c.values[key]
	if len(v) == 0 {
		return "", false
	}
	return v[len(v)-1], true
}

// bool reads key as git reads a boolean: unset is false.
func (c *gitConfig) bool(key string) (bool, error) {
	v, ok := c.get(key)
	if !ok {
		return false, nil
	}
	switch strings.ToLower(v) {
	case blankValue, "true", "yes", "on", "1":
		return true, nil
	case "", "false", "no", "off", "0":
		return false, nil
	}
	if n, err := strconv.Atoi(v); err == nil {
		return n != 0, nil
	}
	return false, fmt.Errorf("%s = %q is not a boolean", key, v)
}

// string reads key as text: an option without "=" is the empty string.
func (c *gitConfig) string(key string) string {
	v, _ := c.get(key)
	if v == blankValue {
		return ""
	}
	return v
}

// readGitConfig reads the configuration git uses in this repository: the
// system file (unless GIT_CONFIG_NOSYSTEM), the global files
// (GIT_CONFIG_GLOBAL, or $XDG_CONFIG_HOME/git/config and ~/.gitconfig),
// the repository's config, its config.worktree when
// extensions.worktreeConfig is set, and the settings of `git -c` that git
// passes to hooks in GIT_CONFIG_PARAMETERS and GIT_CONFIG_COUNT. include.path
// is followed, and so is includeIf with the gitdir:, gitdir/i: and
// onbranch: conditions; other conditions count as false. The environment is
// read through r.opts, never from the process.
func (r *Repo) readGitConfig() (*gitConfig, error) {
	c := &gitConfig{values: map[string][]string{}}
	if !truthy(r.opts.getenv("GIT_CONFIG_NOSYSTEM")) {
		system := r.opts.getenv("GIT_CONFIG_SYSTEM")
		if system == "" {
			system = "/etc/gitconfig"
		}
		if err := r.readConfigFile(c, system, 0); err != nil {
			return nil, err
		}
	}
	for _, global := range r.globalConfigFiles() {
		if err := r.readConfigFile(c, global, 0); err != nil {
			return nil, err
		}
	}
	common := r.commonDir
	if common == "" {
		common = r.gitDir
	}
	if err := r.readConfigFile(c, filepath.Join(common, "config"), 0); err != nil {
		return nil, err
	}
	if on, err := c.bool("extensions.worktreeconfig"); err == nil && on {
		if err := r.readConfigFile(c, filepath.Join(r.gitDir, "config.worktree"), 0); err != nil {
			return nil, err
		}
	}
	if err := r.readConfigEnv(c); err != nil {
		return nil, err
	}
	return c, nil
}

// truthy reads an environment variable as git reads a boolean one.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off":
		return false
	}
	return true
}

// globalConfigFiles are the user's configuration files, as git finds them.
func (r *Repo) globalConfigFiles() []string {
	if g := r.opts.getenv("GIT_CONFIG_GLOBAL"); g != "" {
		return []string{g}
	}
	home := r.opts.getenv("HOME")
	var out []string
	if xdg := r.opts.getenv("XDG_CONFIG_HOME"); xdg != "" {
		out = append(out, filepath.Join(xdg, "git", "config"))
	} else if home != "" {
		out = append(out, filepath.Join(home, ".config", "git", "config"))
	}
	if home != "" {
		out = append(out, filepath.Join(home, ".gitconfig"))
	}
	return out
}

// readConfigFile adds the settings of one file (a missing file adds none)
// and of the files it includes.
func (r *Repo) readConfigFile(c *gitConfig, path string, depth int) error {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	err = gcfg.ReadWithCallback(bytes.NewReader(data), func(section, sub, name, value string, blank bool) error {
		if name == "" {
			return nil
		}
		key := strings.ToLower(section) + "." + strings.ToLower(name)
		if sub != "" {
			key = strings.ToLower(section) + "." + sub + "." + strings.ToLower(name)
		}
		if blank {
			value = blankValue
		}
		c.values[key] = append(c.values[key], value)
		if !strings.EqualFold(name, "path") || blank {
			return nil
		}
		switch {
		case strings.EqualFold(section, "include") && sub == "":
		case strings.EqualFold(section, "includeIf") && r.includeIf(sub, path):
		default:
			return nil
		}
		if depth+1 >= maxIncludeDepth {
			return fmt.Errorf("%s: include.path nested more than %d deep (an include loop?)", path, maxIncludeDepth)
		}
		target, ok := r.includePath(value, path)
		if !ok {
			return nil
		}
		return r.readConfigFile(c, target, depth+1)
	})
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	return nil
}
