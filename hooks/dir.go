package hooks

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/small-hook/small-hook/gitdiff"
)

// Dir returns the directory git runs hooks from for the repository at
// repoDir: core.hooksPath when set (relative to the work tree root, ~
// expanded), else the hooks directory of the common git directory, which
// linked worktrees share.
func Dir(repoDir string) (string, error) {
	loc, err := gitdiff.Locate(repoDir)
	if err != nil {
		return "", err
	}
	if p := hooksPath(filepath.Join(loc.CommonDir, "config")); p != "" {
		if strings.HasPrefix(p, "~/") {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", fmt.Errorf("core.hooksPath %s: %w", p, err)
			}
			p = filepath.Join(home, p[2:])
		}
		if !filepath.IsAbs(p) {
			base := loc.WorkTree
			if base == "" {
				base = loc.GitDir
			}
			p = filepath.Join(base, p)
		}
		return p, nil
	}
	return filepath.Join(loc.CommonDir, "hooks"), nil
}

// hooksPath reads core.hooksPath from a git config file ("" when unset or
// unreadable).
func hooksPath(file string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	cfg := config.New()
	if err := config.NewDecoder(f).Decode(cfg); err != nil {
		return ""
	}
	return strings.TrimSpace(cfg.Section("core").Option("hooksPath"))
}
