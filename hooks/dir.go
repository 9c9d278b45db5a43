package hooks

import (
	"fmt"
	"path/filepath"

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
	// shared is set when From lies outside the repository (a global or
	// system file, or one they include): the directory then serves every
	// repository that file configures.
	shared bool
	// bare says the repository has no work tree: a server's, whose hook is
	// pre-receive; workTree is the root of the work tree otherwise.
	bare     bool
	workTree string
	// tracked lists the files git tracks in the directory (a team's
	// committed .githooks), relative to the work tree's root.
	tracked []string
}

// Dir returns the directory git runs hooks from for the repository at
// repoDir, as git itself says (see gitdiff.HooksDir): core.hooksPath
// wherever git reads it from, includes and conditional includes followed,
// else the hooks directory of the common git directory. The environment
// (GIT_DIR, GIT_CONFIG_*, HOME, XDG_CONFIG_HOME) is read through getenv.
func Dir(repoDir string, getenv func(string) string) (HooksDir, error) {
	h, err := gitdiff.HooksDir(repoDir, gitdiff.Options{Getenv: getenv})
	if err != nil {
		return HooksDir{}, fmt.Errorf("finding the git repository of %s: %w", repoDir, err)
	}
	shared := h.From != "" && filepath.Dir(h.From) != h.CommonDir && filepath.Dir(h.From) != h.GitDir
	return HooksDir{Path: h.Dir, From: h.From, shared: shared, bare: h.Bare, workTree: h.WorkTree, tracked: h.Tracked}, nil
}
