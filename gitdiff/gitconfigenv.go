package gitdiff

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

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
