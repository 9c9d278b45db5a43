package gitdiff

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

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
