package gitdiff

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/small-hook/small-hook/internal/gitread"
)

// Hooks is where git runs a repository's hooks from, as git says.
type Hooks struct {
	// Dir is the hooks directory.
	Dir string
	// From is the configuration file that set core.hooksPath; "" when it
	// is unset (Dir is then the common git directory's hooks, which linked
	// worktrees share) or set other than by a file (`git -c`).
	From string
	// GitDir is the git directory of the work tree, CommonDir the one its
	// worktrees share.
	GitDir, CommonDir string
	// Bare says the repository has no work tree (a server's); WorkTree is
	// the root of the work tree otherwise.
	Bare     bool
	WorkTree string
	// Tracked lists the files git tracks in Dir, relative to the work
	// tree's root: a hooks directory the repository itself holds (a team's
	// committed .githooks), shared with every clone.
	Tracked []string
}

// HooksDir asks git where it runs the hooks of the repository that
// contains dir: `git rev-parse --git-path hooks`, which follows
// core.hooksPath wherever git reads it (system, global, repository and
// worktree configuration, include.path and includeIf of every kind),
// expands ~/ and resolves a relative path as git does. From comes from `git
// config --show-origin`, Tracked from `git ls-files`. The environment
// (GIT_DIR, GIT_CONFIG_*, HOME…) is read through opts.
func HooksDir(dir string, opts Options) (Hooks, error) {
	out, err := gitread.NewGit(dir, opts, nil).Output("rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--git-path", "hooks", "--is-bare-repository")
	if err != nil {
		return Hooks{}, fmt.Errorf("finding the hooks directory: %w", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 4 {
		return Hooks{}, fmt.Errorf("finding the hooks directory: git rev-parse printed %q", out)
	}
	h := Hooks{GitDir: filepath.Clean(lines[0]), CommonDir: filepath.Clean(lines[1]), Dir: filepath.Clean(lines[2]), Bare: lines[3] == "true"}
	if !h.Bare {
		if h.WorkTree, err = gitread.NewGit(dir, opts, nil).Line("rev-parse", "--show-toplevel"); err != nil {
			return Hooks{}, fmt.Errorf("finding the work tree: %w", err)
		}
	}
	if h.Tracked, err = trackedIn(gitread.NewGit(dir, opts, nil), h); err != nil {
		return Hooks{}, err
	}
	// With GIT_DIR given, git names the files it read by absolute paths.
	origin, err := gitread.NewGit(dir, opts, map[string]string{"GIT_DIR": h.GitDir}).Output("config", "--show-origin", "-z", "--get", "core.hooksPath")
	switch {
	case gitread.ExitCode(err) == 1: // unset
	case err != nil:
		return Hooks{}, fmt.Errorf("finding where core.hooksPath is set: %w", err)
	default:
		where, _, _ := bytes.Cut(origin, []byte{0})
		if file, ok := strings.CutPrefix(string(where), "file:"); ok {
			h.From = file
		}
	}
	return h, nil
}

// HooksPath is where git runs the hooks of the repository (`git rev-parse
// --git-path hooks`, as HooksDir asks it): one git process, for a check
// that needs the directory alone.
func (r *Repo) HooksPath() (string, error) {
	dir, err := r.git.Line("rev-parse", "--path-format=absolute", "--git-path", "hooks")
	if err != nil {
		return "", fmt.Errorf("finding the hooks directory: %w", err)
	}
	return filepath.Clean(dir), nil
}

// trackedIn lists the files git tracks in the hooks directory of h, when
// it lies inside the work tree (and outside the git directory).
func trackedIn(g *gitread.Git, h Hooks) ([]string, error) {
	if h.Bare || !within(h.WorkTree, h.Dir) || within(h.CommonDir, h.Dir) || within(h.GitDir, h.Dir) {
		return nil, nil
	}
	out, err := g.Output("ls-files", "-z", "--full-name", "--", h.Dir)
	if err != nil {
		return nil, fmt.Errorf("listing the tracked files of the hooks directory: %w", err)
	}
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files, nil
}

// within reports whether path is dir or lies below it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
