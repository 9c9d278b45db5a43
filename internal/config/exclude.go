package config

import (
	"fmt"
	"strings"
)

// exclude loads the exclude section: a list of path patterns.
func (l loader) exclude(top map[string]any, cfg *Config) error {
	v, ok := top["exclude"]
	if !ok || v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return l.fail([]string{"exclude"}, "exclude must be a list of path patterns, e.g. exclude: [\"spec/small/v0.1/examples/**\"]")
	}
	for i, item := range list {
		at := []string{"exclude", fmt.Sprint(i)}
		s, isString := item.(string)
		if !isString {
			return l.fail(at, "exclude[%d] must be a path pattern (a string)", i)
		}
		if problem := patternProblem(s); problem != "" {
			return l.fail(at, "exclude[%d] %q %s", i, s, problem)
		}
		cfg.Exclude = append(cfg.Exclude, strings.TrimSuffix(s, "/"))
	}
	return nil
}

// patternProblem says what is wrong with an exclude pattern, or "".
func patternProblem(p string) string {
	switch {
	case strings.TrimSpace(p) == "":
		return "is empty"
	case strings.HasPrefix(p, "/"):
		return "starts with /: patterns are relative to the repository root"
	case strings.Contains(p, `\`):
		return `holds a backslash: paths are slash-separated`
	}
	for _, seg := range strings.Split(strings.TrimSuffix(p, "/"), "/") {
		switch {
		case seg == "":
			return "has an empty path segment (//)"
		case seg == "." || seg == "..":
			return "has a . or .. segment: write the path as git stores it"
		case seg != "**" && strings.Contains(seg, "**"):
			return "uses ** inside a segment: ** stands for whole directories (a/**/b)"
		}
	}
	return ""
}

// Excluded reports whether the configuration excludes path (slash-separated,
// relative to the repository root). A pattern's `*` stands for any run of
// characters within one path segment, `?` for one character, `**` as a
// whole segment for any number of directories; every other character,
// brackets included, stands for itself. A pattern that matches a directory
// excludes everything below it.
func (c *Config) Excluded(path string) bool {
	segs := strings.Split(path, "/")
	for _, p := range c.Exclude {
		if matchSegments(append(strings.Split(p, "/"), "**"), segs) {
			return true
		}
	}
	return false
}

// matchSegments matches path segments against pattern segments, where a
// "**" segment matches any number of path segments. reach[j] says whether
// the pattern so far can end just before segment j.
func matchSegments(pattern, segs []string) bool {
	reach := make([]bool, len(segs)+1)
	reach[0] = true
	for _, p := range pattern {
		next := make([]bool, len(segs)+1)
		for j, ok := range reach {
			switch {
			case !ok:
			case p == "**":
				for k := j; k <= len(segs); k++ {
					next[k] = true
				}
			case j < len(segs) && Match(p, segs[j]):
				next[j+1] = true
			}
		}
		reach = next
	}
	return reach[len(segs)]
}
