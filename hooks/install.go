// Package hooks installs small-hook's native git hooks: the shell scripts
// in this directory, embedded in the binary.
package hooks

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

//go:embed pre-commit commit-msg pre-push
var scripts embed.FS

// Marker is the line that identifies a hook small-hook wrote.
const Marker = "# Installed by small-hook"

// Names lists the hooks small-hook installs.
func Names() []string { return []string{"pre-commit", "commit-msg", "pre-push"} }

// Action is what Install or Uninstall did to one hook.
type Action struct {
	Hook string
	Path string
	// What is "installed", "unchanged", "skipped", "replaced", "removed"
	// or "restored".
	What string
	// Note explains a skip or names a backup.
	Note string
}

// Install writes the hooks into the repository's hooks directory (honouring
// core.hooksPath and linked worktrees). A hook small-hook did not write is
// left alone unless force, and then kept as a backup.
func Install(repoDir string, force bool) ([]Action, error) {
	dir, err := Dir(repoDir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", dir, err)
	}
	var actions []Action
	for _, name := range Names() {
		script, err := scripts.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("reading embedded hook %s: %w", name, err)
		}
		a, err := install(filepath.Join(dir, name), name, script, force)
		if err != nil {
			return actions, err
		}
		actions = append(actions, a)
	}
	return actions, nil
}

func install(path, name string, script []byte, force bool) (Action, error) {
	a := Action{Hook: name, Path: path, What: "installed"}
	existing, err := os.ReadFile(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return a, fmt.Errorf("reading %s: %w", path, err)
	case bytes.Equal(existing, script):
		a.What = "unchanged"
		return a, nil
	case ours(existing):
		a.What = "replaced"
	case !force:
		a.What, a.Note = "skipped", "a hook small-hook did not write is there; rerun with --force to replace it (it is kept as a backup)"
		return a, nil
	default:
		backup, err := backupPath(path)
		if err != nil {
			return a, err
		}
		if err := os.Rename(path, backup); err != nil {
			return a, fmt.Errorf("backing up %s: %w", path, err)
		}
		a.What, a.Note = "replaced", "the previous hook is kept as "+backup
	}
	tmp := path + ".small-hook-tmp"
	if err := os.WriteFile(tmp, script, 0o755); err != nil {
		return a, fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return a, fmt.Errorf("writing %s: %w", path, err)
	}
	return a, nil
}

// ours reports whether a hook's content was written by small-hook.
func ours(content []byte) bool {
	return bytes.Contains(content, []byte(Marker))
}

// backupPath returns a name for a backup that does not exist yet.
func backupPath(path string) (string, error) {
	for i := 0; i < 100; i++ {
		p := path + ".small-hook-backup"
		if i > 0 {
			p = fmt.Sprintf("%s.%d", p, i)
		}
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			return p, nil
		}
	}
	return "", fmt.Errorf("too many backups of %s", path)
}

// Uninstall removes the hooks small-hook wrote and restores the newest
// backup of a hook it replaced.
func Uninstall(repoDir string) ([]Action, error) {
	dir, err := Dir(repoDir)
	if err != nil {
		return nil, err
	}
	var actions []Action
	for _, name := range Names() {
		path := filepath.Join(dir, name)
		content, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return actions, fmt.Errorf("reading %s: %w", path, err)
		}
		if !ours(content) {
			actions = append(actions, Action{Hook: name, Path: path, What: "skipped", Note: "not written by small-hook"})
			continue
		}
		if err := os.Remove(path); err != nil {
			return actions, fmt.Errorf("removing %s: %w", path, err)
		}
		a := Action{Hook: name, Path: path, What: "removed"}
		if backup := newestBackup(path); backup != "" {
			if err := os.Rename(backup, path); err != nil {
				return actions, fmt.Errorf("restoring %s: %w", backup, err)
			}
			a.What, a.Note = "restored", "the hook it had replaced is back"
		}
		actions = append(actions, a)
	}
	return actions, nil
}

func newestBackup(path string) string {
	matches, _ := filepath.Glob(path + ".small-hook-backup*")
	newest := ""
	for _, m := range matches {
		if newest == "" || backupNumber(m) > backupNumber(newest) {
			newest = m
		}
	}
	return newest
}

func backupNumber(p string) int {
	_, n, ok := strings.Cut(filepath.Base(p), ".small-hook-backup.")
	if !ok {
		return 0
	}
	var i int
	fmt.Sscan(n, &i)
	return i
}
