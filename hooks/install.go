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
	"strconv"
	"strings"

	"github.com/small-hook/small-hook/gitdiff"
)

//go:embed pre-commit commit-msg pre-push
var scripts embed.FS

// Marker begins the second line of every hook small-hook writes (the line
// after "#!/bin/sh"); it is how Install and Uninstall recognise their own
// hooks.
const Marker = "# Installed by small-hook"

// Names lists the hooks small-hook installs.
func Names() []string { return []string{"pre-commit", "commit-msg", "pre-push"} }

// Action is what Install or Uninstall did to one hook.
type Action struct {
	// Hook is the hook's name, e.g. "pre-commit".
	Hook string
	// Path is the hook's file.
	Path string
	// What is "installed", "unchanged", "skipped", "replaced", "removed"
	// or "restored".
	What string
	// Note explains a skip, names a backup or says that the hooks
	// directory is shared with other repositories.
	Note string
	// Backup is where a hook small-hook did not write was moved before
	// --force replaced it ("" when nothing was backed up).
	Backup string
}

// Report lists what Install or Uninstall did, one Action per hook, in the
// order of Names.
type Report []Action

// Install writes the hooks into the repository's hooks directory (honouring
// core.hooksPath and linked worktrees). A hook small-hook did not write is
// left alone unless force, and then kept as a backup.
func Install(repoDir string, force bool) (Report, error) {
	dir, err := Dir(repoDir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir.Path, 0o755); err != nil {
		return nil, fmt.Errorf("creating the hooks directory %s: %w", dir.Path, err)
	}
	var actions Report
	for _, name := range Names() {
		script, err := scripts.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("reading embedded hook %s: %w", name, err)
		}
		a, err := install(filepath.Join(dir.Path, name), name, script, force)
		if err != nil {
			return actions, err
		}
		if a.Note == "" && sharedConfig(dir.From, repoDir) {
			a.Note = "core.hooksPath is set in " + dir.From + ", so this hook runs for every repository that file configures"
		}
		actions = append(actions, a)
	}
	return actions, nil
}

// sharedConfig reports whether the configuration file that set
// core.hooksPath lies outside the repository (a global or system file).
func sharedConfig(from, repoDir string) bool {
	if from == "" {
		return false
	}
	loc, err := gitdiff.Locate(repoDir)
	if err != nil {
		return false
	}
	return filepath.Dir(from) != loc.CommonDir && filepath.Dir(from) != loc.GitDir
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
		a.What, a.Note, a.Backup = "replaced", "the previous hook is kept as "+backup, backup
	}
	if err := writeScript(path, script); err != nil {
		return a, err
	}
	return a, nil
}

// writeScript replaces path with an executable script (mode 0755 whatever
// the umask) through a temporary file, so git never runs half a hook.
func writeScript(path string, script []byte) error {
	tmp := path + ".small-hook-tmp"
	err := os.WriteFile(tmp, script, 0o755)
	if err == nil {
		err = os.Chmod(tmp, 0o755)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("writing hook %s: %w", path, err)
	}
	return nil
}

// ours reports whether a hook's content was written by small-hook: its
// second line begins with the marker. A foreign hook that merely mentions
// the marker (one that calls small-hook, say) is not ours.
func ours(content []byte) bool {
	_, rest, _ := bytes.Cut(content, []byte("\n"))
	return bytes.HasPrefix(rest, []byte(Marker))
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
func Uninstall(repoDir string) (Report, error) {
	dir, err := Dir(repoDir)
	if err != nil {
		return nil, err
	}
	var actions Report
	for _, name := range Names() {
		path := filepath.Join(dir.Path, name)
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

// newestBackup returns the backup of path with the highest number, or ""
// when there is none.
func newestBackup(path string) string {
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return ""
	}
	prefix := filepath.Base(path) + ".small-hook-backup"
	newest, newestNumber := "", -1
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok {
			continue
		}
		n := 0
		if rest != "" {
			digits, ok := strings.CutPrefix(rest, ".")
			if n, err = strconv.Atoi(digits); !ok || err != nil || n < 1 {
				continue
			}
		}
		if n > newestNumber {
			newest, newestNumber = filepath.Join(filepath.Dir(path), e.Name()), n
		}
	}
	return newest
}
