package gitdiff

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
)

func TestMessageSettingsAgreeWithGit(t *testing.T) {
	cases := []struct {
		name, local string
		env         map[string]string
		comment     string
		cleanup     string
	}{
		{name: "nothing set"},
		{name: "the repository's config", local: "[core]\n\tcommentChar = \";\"\n[commit]\n\tcleanup = whitespace\n", comment: ";", cleanup: "whitespace"},
		{name: "git -c", local: "[core]\n\tcommentChar = \";\"\n", env: map[string]string{"GIT_CONFIG_PARAMETERS": "'core.commentChar'='auto' 'commit.cleanup'='strip'"}, comment: "auto", cleanup: "strip"},
		{name: "core.commentString wins", local: "[core]\n\tcommentChar = \";\"\n\tcommentString = //\n", comment: "//"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			env := map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1"}
			for k, v := range tc.env {
				env[k] = v
			}
			dir := filepath.Join(home, "repo")
			gittest.At(t, home).Git("init", "-q", "-b", "main", dir)
			config := filepath.Join(dir, ".git", "config")
			data, err := os.ReadFile(config)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(config, append(data, tc.local...), 0o644); err != nil {
				t.Fatal(err)
			}
			g, err := Open(dir, Options{Getenv: func(k string) string { return env[k] }})
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			s, err := g.MessageSettings()
			if err != nil {
				t.Fatal(err)
			}
			if s.CommentChar != tc.comment || s.Cleanup != tc.cleanup {
				t.Errorf("got %+v, want comment %q and cleanup %q", s, tc.comment, tc.cleanup)
			}
			if tc.name != "core.commentString wins" {
				if want := gitSays(t, dir, env, "core.commentChar"); s.CommentChar != want {
					t.Errorf("core.commentChar %q, git says %q", s.CommentChar, want)
				}
				if want := gitSays(t, dir, env, "commit.cleanup"); s.Cleanup != want {
					t.Errorf("commit.cleanup %q, git says %q", s.Cleanup, want)
				}
			}
		})
	}
}
