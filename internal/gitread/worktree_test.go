package gitread

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
)

// gitSaysWhere is where git finds the repository from dir with env: its
// git directory, common directory and work tree ("" outside one), each with
// symbolic links resolved; ok is false when git finds none.
func gitSaysWhere(t *testing.T, dir string, env map[string]string) (location, bool) {
	t.Helper()
	var extra []string
	for k, v := range env {
		extra = append(extra, k+"="+v)
	}
	out, err := gittest.Run(dir, gittest.Env(extra...), nil, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir", "--is-inside-work-tree")
	if err != nil {
		return location{}, false
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	loc := location{gitDir: realPath(t, lines[0]), commonDir: realPath(t, lines[1])}
	if lines[2] == "true" {
		top, err := gittest.Run(dir, gittest.Env(extra...), nil, "rev-parse", "--show-toplevel")
		if err != nil {
			t.Fatal(err)
		}
		loc.workTree = realPath(t, strings.TrimSpace(top))
	}
	return loc, true
}

// realPath is path with symbolic links resolved ("" stays "").
func realPath(t *testing.T, path string) string {
	t.Helper()
	if path == "" {
		return ""
	}
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLocateAgreesWithGit: wherever small-hook's own reading of the files
// says where the repository is (its git directory, common directory and
// work tree), git says the same, for every shape a linked worktree, a
// hook's GIT_DIR, a submodule or a bare repository gives; where it does
// not settle it (a .git directory git steps over, GIT_CEILING_DIRECTORIES),
// git decides, and Open opens what git opens, or fails as git fails.
func TestLocateAgreesWithGit(t *testing.T) {
	r := newRepo(t)
	r.Write("sub/deeper/f.txt", "f\n")
	r.Write("nested/.git/placeholder", "")
	r.Commit("one")
	top := filepath.Dir(r.Dir)
	wt := filepath.Join(t.TempDir(), "wt")
	r.Git("worktree", "add", "-q", "-b", "feature", wt)
	bare := filepath.Join(t.TempDir(), "bare.git")
	r.Git("clone", "-q", "--bare", r.Dir, bare)
	bareWT := filepath.Join(t.TempDir(), "bare-wt")
	(&repo{gittest.At(t, bare)}).Git("worktree", "add", "-q", bareWT, "main")
	sub := newRepo(t)
	sub.Commit("sub")
	r.Git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.Dir, "module")
	wtGitDir := filepath.Join(r.Dir, ".git", "worktrees", "wt")
	cases := []struct {
		name, dir string
		env       map[string]string
		// reader is the reader Open must choose ("" when Open must fail
		// as git does).
		reader string
	}{
		{"work tree", r.Dir, nil, ReaderFast},
		{"subdirectory", filepath.Join(r.Dir, "sub", "deeper"), nil, ReaderFast},
		{"linked worktree", wt, nil, ReaderFast},
		{"linked worktree's subdirectory", filepath.Join(wt, "sub"), nil, ReaderFast},
		{"linked worktree as git runs its hooks", wt, map[string]string{"GIT_DIR": wtGitDir, "GIT_INDEX_FILE": filepath.Join(wtGitDir, "index")}, ReaderFast},
		{"GIT_DIR names the worktree's .git file", wt, map[string]string{"GIT_DIR": ".git"}, ReaderFast},
		{"relative GIT_DIR", r.Dir, map[string]string{"GIT_DIR": ".git"}, ReaderFast},
		{"GIT_DIR and GIT_WORK_TREE", filepath.Join(r.Dir, "sub"), map[string]string{"GIT_DIR": filepath.Join(r.Dir, ".git"), "GIT_WORK_TREE": ".."}, ReaderFast},
		{"GIT_WORK_TREE alone", filepath.Join(r.Dir, "sub"), map[string]string{"GIT_WORK_TREE": "."}, ReaderFast},
		{"bare repository", bare, nil, ReaderFast},
		{"inside a bare repository", filepath.Join(bare, "refs"), nil, ReaderFast},
		{"linked worktree of a bare repository", bareWT, nil, ReaderFast},
		{"submodule", filepath.Join(r.Dir, "module"), nil, ReaderGit},
		{"a .git directory git steps over", filepath.Join(r.Dir, "nested"), nil, ReaderGit},
		{"GIT_CEILING_DIRECTORIES that does not bound", filepath.Join(r.Dir, "sub"), map[string]string{"GIT_CEILING_DIRECTORIES": filepath.Join(r.Dir, "sub")}, ReaderGit},
		{"GIT_CEILING_DIRECTORIES that bounds", filepath.Join(r.Dir, "sub"), map[string]string{"GIT_CEILING_DIRECTORIES": r.Dir}, ""},
		{"no repository", top, map[string]string{"GIT_CEILING_DIRECTORIES": filepath.Dir(top)}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opts := Options{Getenv: func(k string) string { return tc.env[k] }}
			want, found := gitSaysWhere(t, tc.dir, tc.env)
			if loc, err := locate(tc.dir, opts); err == nil {
				got := location{gitDir: realPath(t, loc.gitDir), commonDir: realPath(t, loc.shared()), workTree: realPath(t, loc.workTree)}
				if !found || got != want {
					t.Errorf("locate says %+v, git says %+v (found: %v)", got, want, found)
				}
			}
			g, err := Open(tc.dir, opts)
			if tc.reader == "" {
				if err == nil || found {
					t.Fatalf("Open: %v, git found a repository: %v", err, found)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer g.Reader.Close()
			if name, why := g.Reader.Name(), g.Why; name != tc.reader {
				t.Errorf("reader %s (%s), want %s", name, why, tc.reader)
			}
			if got := realPath(t, g.WorkTree); got != want.workTree {
				t.Errorf("work tree %q, git says %q", got, want.workTree)
			}
		})
	}
}
