package gittest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Reader names the reader small-hook's probe must choose for a shape, as
// gitread.ReaderFast and gitread.ReaderGit name them (this package cannot
// import gitread, whose tests use it).
const (
	ReaderFast = "fast"
	ReaderGit  = "git"
)

// Shape is one way git lays out a repository: the conformance matrix
// (docs/git.md) builds each from one origin's history and wants every
// check to give the verdict a plain clone gives, and the readers to agree.
type Shape struct {
	Name string
	// Build makes the repository of origin's history under parent and
	// returns the directory to check in and the environment of the checks
	// (as git gives it to a hook). The origin must allow the filters of
	// a partial clone (uploadpack.allowFilter, uploadpack.allowAnySHA1InWant)
	// and have a branch main.
	Build func(t testing.TB, origin, parent string) (string, map[string]string)
	// Bare shapes have no index.
	Bare bool
	// Reader is the reader the probe must choose: ReaderFast or ReaderGit.
	Reader string
	// ForIndex marks a shape the probe sends to git for its index alone:
	// a run opened without the index (one that judges commits only) is
	// the fast reader's.
	ForIndex bool
}

// Shapes are the repository shapes of the conformance matrix, the plain
// clone first.
func Shapes() []Shape {
	return []Shape{
		cloneShape("plain", ReaderFast, nil),
		cloneShape("packed", ReaderFast, nil, []string{"gc", "-q"}),
		cloneShape("shared clone", ReaderGit, []string{"--shared"}),
		{Name: "reference clone", Reader: ReaderGit, Build: func(t testing.TB, origin, parent string) (string, map[string]string) {
			dst := filepath.Join(parent, "clone")
			At(t, parent).Git("clone", "-q", "--reference", origin, "file://"+origin, dst)
			return dst, nil
		}},
		{Name: "relative alternates", Reader: ReaderGit, Build: func(t testing.TB, origin, parent string) (string, map[string]string) {
			dst := filepath.Join(parent, "clone")
			At(t, parent).Git("clone", "-q", "--shared", origin, dst)
			objects := filepath.Join(dst, ".git", "objects")
			rel, err := filepath.Rel(objects, filepath.Join(origin, ".git", "objects"))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(objects, "info", "alternates"), rel+"\n")
			return dst, nil
		}},
		{Name: "chained alternates", Reader: ReaderGit, Build: func(t testing.TB, origin, parent string) (string, map[string]string) {
			middle, dst := filepath.Join(parent, "middle"), filepath.Join(parent, "clone")
			At(t, parent).Git("clone", "-q", "--shared", origin, middle)
			At(t, parent).Git("clone", "-q", "--shared", middle, dst)
			return dst, nil
		}},
		cloneShape("blobless partial clone", ReaderGit, []string{"--filter=blob:none"}),
		cloneShape("treeless partial clone", ReaderGit, []string{"--filter=tree:0"}),
		indexShape("split index", ReaderGit, nil, []string{"update-index", "--split-index"}),
		cloneShape("index v4", ReaderFast, nil, []string{"update-index", "--index-version", "4"}),
		indexShape("sparse index", ReaderGit, nil, []string{"sparse-checkout", "set", "--sparse-index", ".small"}),
		{Name: "linked worktree", Reader: ReaderFast, Build: func(t testing.TB, origin, parent string) (string, map[string]string) {
			dst, wt := filepath.Join(parent, "clone"), filepath.Join(parent, "worktree")
			At(t, parent).Git("clone", "-q", origin, dst)
			At(t, dst).Git("worktree", "add", "-q", "--detach", wt, "main")
			return wt, nil
		}},
		{Name: "linked worktree, as git runs its hooks", Reader: ReaderFast, Build: func(t testing.TB, origin, parent string) (string, map[string]string) {
			wt, gitDir := linkedWorktree(t, origin, parent)
			return wt, map[string]string{"GIT_DIR": gitDir, "GIT_INDEX_FILE": filepath.Join(gitDir, "index")}
		}},
		{Name: "linked worktree with its own configuration (sparse checkout)", Reader: ReaderFast, Build: func(t testing.TB, origin, parent string) (string, map[string]string) {
			wt, _ := linkedWorktree(t, origin, parent)
			At(t, wt).Git("sparse-checkout", "set", ".small", "src")
			return wt, nil
		}},
		{Name: "linked worktree of a bare repository", Reader: ReaderFast, Build: func(t testing.TB, origin, parent string) (string, map[string]string) {
			bare, wt := filepath.Join(parent, "bare.git"), filepath.Join(parent, "worktree")
			At(t, parent).Git("clone", "-q", "--bare", origin, bare)
			At(t, bare).Git("worktree", "add", "-q", wt, "main")
			return wt, nil
		}},
		{Name: "bare", Bare: true, Reader: ReaderFast, Build: func(t testing.TB, origin, parent string) (string, map[string]string) {
			dst := filepath.Join(parent, "bare.git")
			At(t, parent).Git("clone", "-q", "--bare", origin, dst)
			return dst, nil
		}},
		{Name: "GIT_INDEX_FILE", Reader: ReaderFast, Build: func(t testing.TB, origin, parent string) (string, map[string]string) {
			dst := filepath.Join(parent, "clone")
			At(t, parent).Git("clone", "-q", origin, dst)
			index := filepath.Join(dst, ".git", "other-index")
			data, err := os.ReadFile(filepath.Join(dst, ".git", "index"))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, index, string(data))
			return dst, map[string]string{"GIT_INDEX_FILE": index}
		}},
	}
}

// cloneShape is a shape made by `git clone` with extra arguments, then the
// commands of after, run in the clone.
func cloneShape(name, reader string, args []string, after ...[]string) Shape {
	return Shape{Name: name, Reader: reader, Build: func(t testing.TB, origin, parent string) (string, map[string]string) {
		dst := filepath.Join(parent, "clone")
		At(t, parent).Git(append(append([]string{"clone", "-q"}, args...), source(origin, args), dst)...)
		c := At(t, dst)
		for _, cmd := range after {
			c.Git(cmd...)
		}
		return dst, nil
	}}
}

// indexShape is a cloneShape that the probe sends to git for its index
// alone (see Shape.ForIndex).
func indexShape(name, reader string, args []string, after ...[]string) Shape {
	s := cloneShape(name, reader, args, after...)
	s.ForIndex = true
	return s
}

// source is how a clone names the origin: a file:// URL when a filter
// needs the transport, its path otherwise.
func source(origin string, args []string) string {
	for _, a := range args {
		if strings.HasPrefix(a, "--filter") || a == "--reference" {
			return "file://" + origin
		}
	}
	return origin
}

// linkedWorktree clones the origin under parent and adds a linked worktree
// on a new branch at main; it returns the worktree and its git directory,
// which git names in GIT_DIR when it runs the worktree's hooks.
func linkedWorktree(t testing.TB, origin, parent string) (string, string) {
	t.Helper()
	dst, wt := filepath.Join(parent, "clone"), filepath.Join(parent, "worktree")
	At(t, parent).Git("clone", "-q", origin, dst)
	At(t, dst).Git("worktree", "add", "-q", "-b", "feature", wt, "main")
	return wt, filepath.Join(dst, ".git", "worktrees", "worktree")
}

// writeFile writes a file that must not exist yet or is replaced.
func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
