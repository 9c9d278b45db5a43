package hooks

import (
	"path/filepath"
	"strings"
)

// trackedAdvice says why small-hook's own hooks are not written into a
// hooks directory the repository tracks (a team's committed .githooks,
// named by core.hooksPath), and what to do instead, every command one that
// works as written: call small-hook from the team's hooks, which name no
// path of one machine's.
func trackedAdvice(dir HooksDir, binary string) string {
	rel := trackedDir(dir)
	s := "core.hooksPath is " + rel + ", a directory the repository tracks (" + strings.Join(dir.tracked, ", ") +
		"): the hooks there are shared with every clone, and small-hook's would carry this machine's path to small-hook"
	if binary != "" {
		s += " (" + binary + ")"
	}
	return s + ". Call small-hook from the team's hooks instead, and commit them: " +
		rel + "/pre-commit runs `small-hook check`, " +
		rel + "/commit-msg runs `small-hook check --commit-msg \"$1\"` and " +
		rel + "/pre-push runs `small-hook check --pre-push \"$1\"`, which reads the refs git lists on its standard input; " +
		"every clone then needs small-hook on PATH. `small-hook install --force` writes small-hook's own hooks there instead, for this clone alone"
}

// trackedWarning is the note on a hook --force wrote into a tracked hooks
// directory.
func trackedWarning(dir HooksDir) string {
	return trackedDir(dir) + " is tracked by the repository, and this hook names this machine's small-hook: do not commit it"
}

// trackedDir is the hooks directory relative to the work tree's root.
func trackedDir(dir HooksDir) string {
	rel, err := filepath.Rel(dir.workTree, dir.Path)
	if err != nil {
		return dir.Path
	}
	return filepath.ToSlash(rel)
}
