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
)

//go:embed pre-commit commit-msg pre-push pre-receive
var scripts embed.FS

// binaryPlaceholder is where a script receives the path of the small-hook
// binary that installed it (as a quoted shell word).
const binaryPlaceholder = "@SMALL_HOOK_BINARY@"

// chainedSuffix is appended to the name of a hook small-hook did not write
// when `install --force` takes its place: small-hook's hook runs it first,
// and uninstall puts it back.
const chainedSuffix = ".small-hook-chained"

// Marker begins the second line of every hook small-hook writes (the line
// after "#!/bin/sh"); it is how Install and Uninstall recognise their own
// hooks.
const Marker = "# Installed by small-hook"

// Names lists the hooks small-hook installs in a repository with a work
// tree.
func Names() []string { return []string{"pre-commit", "commit-msg", "pre-push"} }

// serverNames lists the hooks small-hook installs in a bare repository,
// which receives pushes.
func serverNames() []string { return []string{"pre-receive"} }

// Options say how to install the hooks.
type Options struct {
	// Force installs over hooks small-hook did not write; each keeps
	// running, chained before small-hook's.
	Force bool
	// Binary is the small-hook the hooks run: the absolute path of the
	// installing binary, so that a client with another PATH finds it (they
	// fall back to PATH when it is gone); "" looks on PATH only.
	Binary string
	// Getenv reads the environment (GIT_DIR, GIT_CONFIG_*, HOME, ...).
	Getenv func(string) string
}

// script returns the hook script name as Install writes it for binary.
func script(name, binary string) ([]byte, error) {
	script, err := scripts.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading embedded hook %s: %w", name, err)
	}
	return bytes.Replace(script, []byte(binaryPlaceholder), []byte(shellQuote(binary)), 1), nil
}

// shellQuote returns s as one single-quoted word of the POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Action is what Install or Uninstall did to one hook.
type Action struct {
	// Hook is the hook's name, e.g. "pre-commit".
	Hook string
	// Path is the hook's file.
	Path string
	// What is "installed", "unchanged", "skipped", "replaced", "removed"
	// or "restored".
	What string
	// Note explains a skip (for a hook of the pre-commit framework: which
	// one hook system to keep, and how), names a backup or says that the
	// hooks directory is shared with other repositories.
	Note string
	// Chained is where a hook small-hook did not write was moved when
	// --force took its place: small-hook's hook runs it from there ("" when
	// nothing was chained).
	Chained string
}

// Report lists what Install or Uninstall did, one Action per hook, in the
// order of Names.
type Report []Action

// Install writes the hooks into the repository's hooks directory (honouring
// core.hooksPath and linked worktrees): the client hooks (Names) in a
// repository with a work tree, the pre-receive hook (serverNames) in a bare
// one. A hook small-hook did not write is left alone unless opts.Force,
// and then chained: it keeps running, before small-hook's. Where the
// pre-commit framework manages the hooks, or the hooks directory is one
// the repository tracks, nothing is written unless opts.Force: every
// action then says what to do instead (the same note on each).
func Install(repoDir string, opts Options) (Report, error) {
	dir, err := Dir(repoDir, opts.Getenv)
	if err != nil {
		return nil, err
	}
	names := Names()
	if dir.bare {
		names = serverNames()
	}
	fw, err := detectFramework(dir)
	if err != nil {
		return nil, err
	}
	if actions := leftAlone(dir, fw, names, opts); actions != nil {
		return actions, nil
	}
	if err := os.MkdirAll(dir.Path, 0o755); err != nil {
		return nil, fmt.Errorf("creating the hooks directory %s: %w", dir.Path, err)
	}
	var actions Report
	for _, name := range names {
		script, err := script(name, opts.Binary)
		if err != nil {
			return nil, err
		}
		a, err := install(filepath.Join(dir.Path, name), name, script, opts.Force)
		if err != nil {
			return actions, err
		}
		if a.Note == "" && dir.shared {
			a.Note = "core.hooksPath is set in " + dir.From + ", so this hook runs for every repository that file configures"
		}
		a.Note = joinNotes(a.Note, forcedWarning(dir, fw, a))
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
		a.What, a.Note = "skipped", "a hook small-hook did not write is there; rerun with --force to install small-hook's in its place (the hook there keeps running, before small-hook's)"
		return a, nil
	default:
		note, err := chain(path)
		if err != nil {
			return a, err
		}
		a.What, a.Note, a.Chained = "chained", note, path+chainedSuffix
	}
	if err := writeScript(path, script); err != nil {
		return a, err
	}
	return a, nil
}

// chain moves the hook at path to path + chainedSuffix, where small-hook's
// hook runs it. A hook chained there before (small-hook's own hook was
// since replaced by this one) is kept as a backup that no longer runs. It
// returns the note for the report.
func chain(path string) (string, error) {
	chained := path + chainedSuffix
	note := "the hook that was here runs first, from " + chained
	if _, err := os.Lstat(chained); err == nil {
		backup, err := backupPath(path)
		if err != nil {
			return "", err
		}
		if err := os.Rename(chained, backup); err != nil {
			return "", fmt.Errorf("backing up %s: %w", chained, err)
		}
		note += "; the hook chained there before is kept as " + backup + " and no longer runs"
	}
	if err := os.Rename(path, chained); err != nil {
		return "", fmt.Errorf("moving %s to %s: %w", path, chained, err)
	}
	return note, nil
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

// Uninstall removes the hooks small-hook wrote and puts back the hook each
// had chained (or, from an older small-hook, the newest backup of the hook
// it replaced). A hook of small-hook's that the pre-commit framework kept
// as <hook>.legacy (and runs from its own hook) is removed too; pre-commit's
// hook stays.
func Uninstall(repoDir string, getenv func(string) string) (Report, error) {
	dir, err := Dir(repoDir, getenv)
	if err != nil {
		return nil, err
	}
	var actions Report
	for _, name := range append(Names(), serverNames()...) {
		a, err := uninstall(filepath.Join(dir.Path, name), name)
		if err != nil {
			return actions, err
		}
		if a != nil {
			actions = append(actions, *a)
		}
	}
	return actions, nil
}

// uninstall removes one hook if small-hook wrote it, and small-hook's
// copy kept by the pre-commit framework; nil when neither hook exists.
func uninstall(path, name string) (*Action, error) {
	content, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	legacy := ""
	if ownLegacy(path) {
		legacy = path + legacySuffix
		if err := os.Remove(legacy); err != nil {
			return nil, fmt.Errorf("removing %s: %w", legacy, err)
		}
	}
	switch {
	case exists && ours(content):
		a, err := removeOwn(path, name)
		if legacy != "" {
			note := "its copy " + legacy + " is removed too"
			if a.Note != "" {
				note = a.Note + "; " + note
			}
			a.Note = note
		}
		return &a, err
	case legacy != "":
		return &Action{Hook: name, Path: legacy, What: "removed",
			Note: "small-hook's hook, which the pre-commit framework kept as " + name + legacySuffix + " and ran; pre-commit's own hook stays"}, nil
	case !exists:
		return nil, nil
	case byPreCommit(content):
		return &Action{Hook: name, Path: path, What: "skipped",
			Note: "the pre-commit framework's hook: it runs small-hook only if .pre-commit-config.yaml lists small-hook's hooks; remove them there"}, nil
	default:
		return &Action{Hook: name, Path: path, What: "skipped", Note: "not written by small-hook"}, nil
	}
}

// removeOwn removes small-hook's hook at path and puts back the hook it
// had chained, else the newest backup of the hook an older small-hook
// replaced.
func removeOwn(path, name string) (Action, error) {
	a := Action{Hook: name, Path: path, What: "removed"}
	if err := os.Remove(path); err != nil {
		return a, fmt.Errorf("removing %s: %w", path, err)
	}
	back := path + chainedSuffix
	if _, err := os.Lstat(back); err != nil {
		back = newestBackup(path)
	}
	if back != "" {
		if err := os.Rename(back, path); err != nil {
			return a, fmt.Errorf("restoring %s: %w", back, err)
		}
		a.What, a.Note = "restored", "the hook it had taken the place of is back"
	}
	return a, nil
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
