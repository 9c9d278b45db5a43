package gitdiff

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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

// includePath resolves an include's path as git does: ~/ is the home
// directory and a relative path is relative to the including file. It is
// false for a path under the home directory when HOME is not set.
func (r *Repo) includePath(p, from string) (string, bool) {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return homePath(r.opts.getenv("HOME"), rest)
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(filepath.Dir(from), p), true
	}
	return p, true
}

// homePath is rest under the home directory, and false when there is no
// home directory to expand ~/ to.
func homePath(home, rest string) (string, bool) {
	if home == "" {
		return "", false
	}
	return filepath.Join(home, rest), true
}

// includeIf evaluates an includeIf condition in the file at from.
func (r *Repo) includeIf(cond, from string) bool {
	switch {
	case strings.HasPrefix(cond, "gitdir:"):
		return r.gitDirMatches(strings.TrimPrefix(cond, "gitdir:"), from, false)
	case strings.HasPrefix(cond, "gitdir/i:"):
		return r.gitDirMatches(strings.TrimPrefix(cond, "gitdir/i:"), from, true)
	case strings.HasPrefix(cond, "onbranch:"):
		branch := r.headBranch()
		return branch != "" && globMatch(branchPattern(strings.TrimPrefix(cond, "onbranch:")), branch, false)
	}
	return false
}

// gitDirMatches matches the git directory against an includeIf gitdir
// pattern, as git expands it: ~/ is the home directory, ./ the including
// file's directory, a relative pattern may match at any depth (**/), and a
// pattern ending in / matches everything below.
func (r *Repo) gitDirMatches(pattern, from string, fold bool) bool {
	switch {
	case strings.HasPrefix(pattern, "~/"):
		home, ok := homePath(r.opts.getenv("HOME"), "")
		if !ok {
			return false
		}
		pattern = filepath.ToSlash(home) + pattern[1:]
	case strings.HasPrefix(pattern, "./"):
		pattern = filepath.ToSlash(filepath.Dir(from)) + pattern[1:]
	case !strings.HasPrefix(pattern, "/"):
		pattern = "**/" + pattern
	}
	if strings.HasSuffix(pattern, "/") {
		pattern += "**"
	}
	dirs := []string{r.gitDir}
	if real, err := filepath.EvalSymlinks(r.gitDir); err == nil && real != r.gitDir {
		dirs = append(dirs, real)
	}
	for _, d := range dirs {
		if globMatch(pattern, filepath.ToSlash(d), fold) {
			return true
		}
	}
	return false
}

// branchPattern expands an onbranch pattern ending in / as git does.
func branchPattern(p string) string {
	if strings.HasSuffix(p, "/") {
		return p + "**"
	}
	return p
}

// headBranch is the short name of the branch HEAD points to, "" when HEAD
// is detached or cannot be read.
func (r *Repo) headBranch() string {
	data, err := os.ReadFile(filepath.Join(r.gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	ref, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "ref: refs/heads/")
	if !ok {
		return ""
	}
	return ref
}

// globMatch matches a path against a wildmatch pattern with git's
// WM_PATHNAME rules for *, ? and **; other characters are literal.
func globMatch(pattern, path string, fold bool) bool {
	var re strings.Builder
	if fold {
		re.WriteString("(?i)")
	}
	re.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		switch {
		case strings.HasPrefix(pattern[i:], "**/"):
			re.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(pattern[i:], "**"):
			re.WriteString(".*")
			i++
		case pattern[i] == '*':
			re.WriteString("[^/]*")
		case pattern[i] == '?':
			re.WriteString("[^/]")
		default:
			re.WriteString(regexp.QuoteMeta(pattern[i : i+1]))
		}
	}
	re.WriteString("$")
	ok, err := regexp.MatchString(re.String(), path)
	return err == nil && ok
}

// readConfigEnv adds the settings `git -c` and GIT_CONFIG_COUNT pass to
// the commands and hooks git runs.
func (r *Repo) readConfigEnv(c *gitConfig) error {
	add := func(key, value string) error {
		section, name, ok := strings.Cut(key, ".")
		if !ok {
			return fmt.Errorf("the configuration key %q passed by git has no section", key)
		}
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			key = strings.ToLower(section) + "." + name[:i] + "." + strings.ToLower(name[i+1:])
		} else {
			key = strings.ToLower(key)
		}
		c.values[key] = append(c.values[key], value)
		return nil
	}
	if params := r.opts.getenv("GIT_CONFIG_PARAMETERS"); params != "" {
		settings, err := parseConfigParameters(params)
		if err != nil {
			return fmt.Errorf("GIT_CONFIG_PARAMETERS: %w", err)
		}
		for _, s := range settings {
			if err := add(s[0], s[1]); err != nil {
				return err
			}
		}
	}
	count := r.opts.getenv("GIT_CONFIG_COUNT")
	if count == "" {
		return nil
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 0 {
		return fmt.Errorf("GIT_CONFIG_COUNT=%q is not a number", count)
	}
	for i := 0; i < n; i++ {
		key := r.opts.getenv(fmt.Sprintf("GIT_CONFIG_KEY_%d", i))
		if key == "" {
			return fmt.Errorf("GIT_CONFIG_KEY_%d is missing", i)
		}
		if err := add(key, r.opts.getenv(fmt.Sprintf("GIT_CONFIG_VALUE_%d", i))); err != nil {
			return err
		}
	}
	return nil
}

// parseConfigParameters reads GIT_CONFIG_PARAMETERS: shell-quoted words
// separated by spaces, each 'key'='value', 'key'= (a blank value: `git -c
// key`) or, as older git wrote it, 'key=value' or 'key'. It returns key and value pairs.
func parseConfigParameters(s string) ([][2]string, error) {
	var out [][2]string
	for s = strings.TrimLeft(s, " "); s != ""; s = strings.TrimLeft(s, " ") {
		key, rest, err := dequoteWord(s)
		if err != nil {
			return nil, err
		}
		value := blankValue
		if after, ok := strings.CutPrefix(rest, "="); ok {
			// 'key'= with nothing quoted after it is `git -c key`: a blank value.
			rest = after
			if after != "" && after[0] != ' ' {
				if value, rest, err = dequoteWord(after); err != nil {
					return nil, err
				}
			}
		} else if k, v, ok := strings.Cut(key, "="); ok {
			key, value = k, v
		}
		out = append(out, [2]string{key, value})
		s = rest
	}
	return out, nil
}

// dequoteWord reads one word quoted as git's sq_quote writes it: single
// quoted parts, with \' or \! between them for those characters.
func dequoteWord(s string) (word, rest string, err error) {
	var b strings.Builder
	i := 0
	for i < len(s) && s[i] != ' ' && s[i] != '=' {
		switch {
		case s[i] == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return "", "", errors.New("an unterminated quote")
			}
			b.WriteString(s[i+1 : i+1+end])
			i += end + 2
		case s[i] == '\\' && i+1 < len(s) && (s[i+1] == '\'' || s[i+1] == '!'):
			b.WriteByte(s[i+1])
			i += 2
		default:
			return "", "", fmt.Errorf("unexpected %q outside quotes", s[i])
		}
	}
	return b.String(), s[i:], nil
}
