package hooks

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInstalledHooksAreTheOnesGitRuns installs into repositories whose
// hooks live in different places and proves each time that git itself runs
// the installed hook: a commit calls the fake small-hook.
func TestInstalledHooksAreTheOnesGitRuns(t *testing.T) {
	cases := []struct {
		name string
		// setup prepares the repository and returns the directory to
		// install from, the directory to commit in, and where the hooks
		// must land.
		setup      func(t *testing.T, repo, home, global string) (installDir, commitDir, hooksDir string)
		sharedNote bool
	}{
		{"fresh repository", func(t *testing.T, repo, _, _ string) (string, string, string) {
			return repo, repo, filepath.Join(repo, ".git", "hooks")
		}, false},
		{"from a subdirectory", func(t *testing.T, repo, _, _ string) (string, string, string) {
			sub := filepath.Join(repo, "a", "b")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			return sub, repo, filepath.Join(repo, ".git", "hooks")
		}, false},
		{"relative core.hooksPath", func(t *testing.T, repo, _, _ string) (string, string, string) {
			git(t, repo, nil, "config", "core.hooksPath", "ci/hooks")
			return repo, repo, filepath.Join(repo, "ci", "hooks")
		}, false},
		{"core.hooksPath under ~", func(t *testing.T, repo, home, _ string) (string, string, string) {
			git(t, repo, nil, "config", "core.hooksPath", "~/my-hooks")
			return repo, repo, filepath.Join(home, "my-hooks")
		}, false},
		{"absolute core.hooksPath", func(t *testing.T, repo, _, _ string) (string, string, string) {
			abs := filepath.Join(t.TempDir(), "shared")
			git(t, repo, nil, "config", "core.hooksPath", abs)
			return repo, repo, abs
		}, false},
		{"global core.hooksPath", func(t *testing.T, repo, home, global string) (string, string, string) {
			writeFile(t, global, "[core]\n\thooksPath = "+filepath.Join(home, "global-hooks")+"\n", 0o644)
			return repo, repo, filepath.Join(home, "global-hooks")
		}, true},
		{"repository setting overrides the global one", func(t *testing.T, repo, home, global string) (string, string, string) {
			writeFile(t, global, "[core]\n\thooksPath = "+filepath.Join(home, "global-hooks")+"\n", 0o644)
			git(t, repo, nil, "config", "core.hooksPath", ".githooks")
			return repo, repo, filepath.Join(repo, ".githooks")
		}, false},
		{"core.hooksPath through include.path", func(t *testing.T, repo, _, _ string) (string, string, string) {
			writeFile(t, filepath.Join(repo, ".git", "hooks.inc"), "[core]\n\thooksPath = included-hooks\n", 0o644)
			git(t, repo, nil, "config", "include.path", "hooks.inc")
			return repo, repo, filepath.Join(repo, "included-hooks")
		}, false},
		{"core.hooksPath through includeIf hasconfig:remote.*.url", func(t *testing.T, repo, home, global string) (string, string, string) {
			writeFile(t, filepath.Join(home, "work.inc"), "[core]\n\thooksPath = "+filepath.Join(home, "work-hooks")+"\n", 0o644)
			writeFile(t, global, "[includeIf \"hasconfig:remote.*.url:https://example.com/**\"]\n\tpath = "+filepath.Join(home, "work.inc")+"\n", 0o644)
			git(t, repo, nil, "remote", "add", "origin", "https://example.com/team/repo.git")
			return repo, repo, filepath.Join(home, "work-hooks")
		}, true},
		{"linked worktree", func(t *testing.T, repo, _, _ string) (string, string, string) {
			wt := filepath.Join(t.TempDir(), "wt")
			git(t, repo, nil, "worktree", "add", "-q", "-b", "side", wt)
			return wt, wt, filepath.Join(repo, ".git", "hooks")
		}, false},
		{"linked worktree with its own config.worktree", func(t *testing.T, repo, _, _ string) (string, string, string) {
			wt := filepath.Join(t.TempDir(), "wt")
			git(t, repo, nil, "worktree", "add", "-q", "-b", "side", wt)
			git(t, repo, nil, "config", "extensions.worktreeConfig", "true")
			git(t, wt, nil, "config", "--worktree", "core.hooksPath", "wt-hooks")
			return wt, wt, filepath.Join(wt, "wt-hooks")
		}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			global := isolate(t)
			home := os.Getenv("HOME")
			repo := newRepo(t)
			installDir, commitDir, want := c.setup(t, repo, home, global)

			dir, err := Dir(installDir, os.Getenv)
			if err != nil {
				t.Fatal(err)
			}
			if dir.Path != want {
				t.Fatalf("hooks directory %s, want %s", dir.Path, want)
			}
			acts, err := Install(installDir, Options{Getenv: os.Getenv})
			if err != nil {
				t.Fatal(err)
			}
			for _, a := range acts {
				if filepath.Dir(a.Path) != want {
					t.Errorf("%s written to %s, want it in %s", a.Hook, a.Path, want)
				}
				if shared := strings.Contains(a.Note, "every repository"); shared != c.sharedNote {
					t.Errorf("%s: note %q; want a note about a shared hooks directory: %v", a.Hook, a.Note, c.sharedNote)
				}
			}

			bin, log := t.TempDir(), filepath.Join(t.TempDir(), "calls")
			fakeBinary(t, bin, log)
			path := "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")
			git(t, commitDir, []string{path}, "commit", "-q", "--allow-empty", "-m", "two")
			got := strings.Join(calls(t, log), "\n")
			if !strings.HasPrefix(got, "check\ncheck --commit-msg ") {
				t.Fatalf("git did not run the installed hooks; small-hook was called as:\n%s", got)
			}
		})
	}
}
