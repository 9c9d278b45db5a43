package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/small-hook/small-hook/gitdiff"
)

// HooksDir is where git runs a repository's hooks from, and why.
type HooksDir struct {
	// Path is the directory.
	Path string
	// From is the git configuration file that set core.hooksPath, or ""
	// when it is unset and Path is the hooks directory of the common git
	// directory (which linked worktrees share).
	From string
}

// Dir returns the directory git runs hooks from for the repository at
// repoDir: core.hooksPath when set (relative to the work tree root, ~/
// expanded), else the hooks directory of the common git directory.
// core.hooksPath is read from the files git reads it from, the last one
// setting it winning: the system file (unless GIT_CONFIG_NOSYSTEM), the
// global files (GIT_CONFIG_GLOBAL, or $XDG_CONFIG_HOME/git/config and
// ~/.gitconfig), the repository's config and, when
// extensions.worktreeConfig is on, the worktree's config.worktree.
// include.path directives are not followed. The environment (GIT_DIR,
// GIT_CONFIG_*, HOME, XDG_CONFIG_HOME) is read through getenv.
func Dir(repoDir string, getenv func(string) string) (HooksDir, error) {
	loc, err := gitdiff.LocateWith(repoDir, gitdiff.Options{Getenv: getenv})
	if err != nil {
		return HooksDir{}, fmt.Errorf("finding the git repository of %s: %w", repoDir, err)
	}
	value, from, err := hooksPath(configFiles(loc, getenv))
	if err != nil {
		return HooksDir{}, err
	}
	if value == "" {
		return HooksDir{Path: filepath.Join(loc.CommonDir, "hooks")}, nil
	}
	if rest, ok := strings.CutPrefix(value, "~/"); ok {
		home := homeDir(getenv)
		if home == "" {
			return HooksDir{}, fmt.Errorf("expanding core.hooksPath %s from %s: no home directory (HOME is not set)", value, from)
		}
		value = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(value) {
		base := loc.WorkTree
		if base == "" {
			base = loc.GitDir
		}
		value = filepath.Join(base, value)
	}
	return HooksDir{Path: value, From: from}, nil
}

// configFiles lists the git configuration files in the order git reads
// them (later ones override earlier ones).
func configFiles(loc gitdiff.Location, getenv func(string) string) []string {
	var files []string
	if !truthy(getenv("GIT_CONFIG_NOSYSTEM")) {
		files = append(files, envOr(getenv, "GIT_CONFIG_SYSTEM", "/etc/gitconfig"))
	}
	if global := getenv("GIT_CONFIG_GLOBAL"); global != "" {
		files = append(files, global)
	} else {
		home := homeDir(getenv)
		xdg := getenv("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	local := filepath.Join(loc.CommonDir, "config")
	files = append(files, local)
	if cfg, err := readConfig(local); err == nil && cfg != nil &&
		truthy(cfg.Section("extensions").Option("worktreeConfig")) {
		files = append(files, filepath.Join(loc.GitDir, "config.worktree"))
	}
	return files
}

// hooksPath returns the last core.hooksPath set in files and the file that
// set it. Missing files are skipped; an unreadable one is an error, since
// guessing the wrong hooks directory would install hooks git never runs.
func hooksPath(files []string) (value, from string, err error) {
	for _, file := range files {
		cfg, err := readConfig(file)
		if err != nil {
			return "", "", err
		}
		if cfg == nil || !cfg.Section("core").HasOption("hooksPath") {
			continue
		}
		value, from = strings.TrimSpace(cfg.Section("core").Option("hooksPath")), file
	}
	return value, from, nil
}

// readConfig decodes a git configuration file; nil without error when the
// file does not exist.
func readConfig(file string) (*config.Config, error) {
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading git configuration %s: %w", file, err)
	}
	defer f.Close()
	cfg := config.New()
	if err := config.NewDecoder(f).Decode(cfg); err != nil {
		return nil, fmt.Errorf("decoding git configuration %s: %w", file, err)
	}
	return cfg, nil
}

// truthy reports whether a git boolean value is true.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// envOr returns the environment variable name, or def when it is unset.
func envOr(getenv func(string) string, name, def string) string {
	if v := getenv(name); v != "" {
		return v
	}
	return def
}

// homeDir is the user's home directory as git finds it: HOME, or on
// Windows USERPROFILE.
func homeDir(getenv func(string) string) string {
	if home := getenv("HOME"); home != "" || runtime.GOOS != "windows" {
		return home
	}
	return getenv("USERPROFILE")
}
