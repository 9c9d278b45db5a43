package gitdiff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProbeSendsWhatTheFastReaderDoesNotReadToGit: each thing in a
// repository or its environment that the fast reader does not read as git
// does has git read the whole run, and the run still sees the staged
// change and the history as git does.
func TestProbeSendsWhatTheFastReaderDoesNotReadToGit(t *testing.T) {
	cases := []struct {
		name string
		// setup changes the repository and returns the environment.
		setup func(t *testing.T, r *repo) map[string]string
		why   string
	}{
		{"nothing", func(t *testing.T, r *repo) map[string]string { return nil }, ""},
		{"GIT_OBJECT_DIRECTORY", func(t *testing.T, r *repo) map[string]string {
			return map[string]string{"GIT_OBJECT_DIRECTORY": filepath.Join(r.Dir, ".git", "objects")}
		}, "GIT_OBJECT_DIRECTORY is set"},
		{"GIT_NAMESPACE", func(t *testing.T, r *repo) map[string]string {
			return map[string]string{"GIT_NAMESPACE": "other"}
		}, "GIT_NAMESPACE is set"},
		{"core.worktree", func(t *testing.T, r *repo) map[string]string {
			r.Git("config", "core.worktree", r.Dir)
			return nil
		}, "core.worktree is set"},
		{"core.worktree in config.worktree", func(t *testing.T, r *repo) map[string]string {
			r.Git("config", "extensions.worktreeConfig", "true")
			r.Git("config", "--worktree", "core.worktree", r.Dir)
			return nil
		}, "core.worktree is set in config.worktree"},
		{"an extension", func(t *testing.T, r *repo) map[string]string {
			r.Git("config", "core.repositoryFormatVersion", "1")
			r.Git("config", "extensions.noop-v1", "true")
			return nil
		}, "extensions.noop-v1 is set"},
		{"a version 1 pack index", func(t *testing.T, r *repo) map[string]string {
			r.Git("repack", "-a", "-d", "-q")
			packs, err := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "pack", "*.pack"))
			if err != nil || len(packs) != 1 {
				t.Fatalf("packs: %v %v", packs, err)
			}
			idx := strings.TrimSuffix(packs[0], ".pack") + ".idx"
			if err := os.Remove(idx); err != nil {
				t.Fatal(err)
			}
			r.Git("index-pack", "--index-version=1", "-o", idx, packs[0])
			return nil
		}, "is not of version 2"},
		{"a pack index without its pack", func(t *testing.T, r *repo) map[string]string {
			r.Git("repack", "-a", "-q")
			packs, err := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "pack", "*.pack"))
			if err != nil || len(packs) != 1 {
				t.Fatalf("packs: %v %v", packs, err)
			}
			if err := os.Rename(packs[0], packs[0]+".moved"); err != nil {
				t.Fatal(err)
			}
			return nil
		}, "has no pack"},
		{"SMALL_HOOK_READER=git", func(t *testing.T, r *repo) map[string]string {
			return map[string]string{"SMALL_HOOK_READER": "git"}
		}, "SMALL_HOOK_READER=git"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.Write(".small/constraints.small.yml", "a1")
			base := r.Commit("one")
			r.Write(".small/constraints.small.yml", "a2")
			r.Commit("two")
			r.Write(".small/constraints.small.yml", "a3")
			r.Git("add", "-A")
			env := tc.setup(t, r)
			g := r.openWith(env)
			defer g.Close()
			name, why := g.Reader()
			if want := map[bool]string{true: ReaderFast, false: ReaderGit}[tc.why == ""]; name != want || !strings.Contains(why, tc.why) {
				t.Fatalf("reader %s (%q), want %s (%q)", name, why, want, tc.why)
			}
			u, err := g.Staged(Scope{})
			if err != nil || summary(u.Changes) != ".small/constraints.small.yml:a2>a3" {
				t.Errorf("staged: %s, %v", summary(u.Changes), err)
			}
			units, err := rangeUnits(g, base, "HEAD", Scope{})
			if err != nil || len(units) != 1 || summary(units[0].Changes) != ".small/constraints.small.yml:a1>a2" {
				t.Errorf("range: %v, %v", units, err)
			}
		})
	}
}

// TestOnlyGitCanBeAskedFor: SMALL_HOOK_READER names git, or leaves the
// choice to the probe; the fast reader cannot be forced on a repository
// the probe sends to git.
func TestOnlyGitCanBeAskedFor(t *testing.T) {
	r := newRepo(t)
	r.Commit("one")
	for value, ok := range map[string]bool{"": true, "auto": true, "git": true, "fast": false, "go-git": false} {
		_, err := Open(r.Dir, Options{Getenv: func(k string) string { return map[string]string{"SMALL_HOOK_READER": value}[k] }})
		if (err == nil) != ok || !ok && !strings.Contains(err.Error(), "SMALL_HOOK_READER="+value) {
			t.Errorf("%q: %v", value, err)
		}
	}
}
