package gitdiff

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
)

// configCase is a git configuration spread over the places git reads it
// from; SigningSettings must read what git itself reads.
type configCase struct {
	name string
	// global is ~/.gitconfig, local the repository's config, files more
	// files under the home directory (for includes), keyed by name.
	global, local string
	files         map[string]string
	// env is the environment of the hook (HOME is added).
	env map[string]string
	// branch is checked out before reading, when set.
	branch string
	// signs is what git says of commit.gpgsign.
	signs bool
}

// gitSays runs git config --get in the repository with the case's
// environment; "" when the key is not set.
func gitSays(t *testing.T, dir string, env map[string]string, args ...string) string {
	t.Helper()
	vars := []string{"PATH=" + os.Getenv("PATH")}
	for k, v := range env {
		vars = append(vars, k+"="+v)
	}
	out, err := gittest.Run(dir, vars, nil, append([]string{"config", "--get"}, args...)...)
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return ""
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(out)
}

func TestSigningSettingsAgreeWithGit(t *testing.T) {
	cases := []configCase{
		{name: "nothing set"},
		{name: "global", signs: true, global: "[commit]\n\tgpgsign = true\n[gpg]\n\tformat = ssh\n[user]\n\tsigningkey = ~/.ssh/id.pub\n\temail = g@example.com\n"},
		{name: "local overrides global", global: "[commit]\n\tgpgsign = true\n[user]\n\tsigningKey = ~/global.pub\n", local: "[commit]\n\tgpgSign = false\n[user]\n\tsigningkey = local.pub\n"},
		{name: "a blank value is true", signs: true, local: "[commit]\n\tgpgsign\n[gpg]\n\tformat = SSH\n"},
		{name: "yes and numbers", signs: true, global: "[commit]\n\tgpgsign = yes\n", local: "[commit]\n\tgpgsign = 2\n"},
		{name: "include.path", signs: true, global: "[include]\n\tpath = signing.inc\n", files: map[string]string{"signing.inc": "[commit]\n\tgpgsign = on\n[user]\n\tsigningkey = from-include.pub\n"}},
		{name: "includeIf gitdir matches", signs: true, global: "[includeIf \"gitdir:~/\"]\n\tpath = ~/work.inc\n", files: map[string]string{"work.inc": "[commit]\n\tgpgsign = true\n"}},
		{name: "includeIf gitdir elsewhere", global: "[includeIf \"gitdir:/nowhere/\"]\n\tpath = ~/work.inc\n", files: map[string]string{"work.inc": "[commit]\n\tgpgsign = true\n"}},
		{name: "includeIf relative gitdir", signs: true, global: "[includeIf \"gitdir:repo/.git\"]\n\tpath = ~/work.inc\n", files: map[string]string{"work.inc": "[commit]\n\tgpgsign = true\n"}},
		{name: "includeIf onbranch", signs: true, branch: "release/1", global: "[includeIf \"onbranch:release/\"]\n\tpath = ~/work.inc\n", files: map[string]string{"work.inc": "[commit]\n\tgpgsign = true\n"}},
		{name: "includeIf onbranch elsewhere", global: "[includeIf \"onbranch:release/\"]\n\tpath = ~/work.inc\n", files: map[string]string{"work.inc": "[commit]\n\tgpgsign = true\n"}},
		{name: "includeIf hasconfig:remote.*.url", signs: true, global: "[includeIf \"hasconfig:remote.*.url:https://example.com/**\"]\n\tpath = ~/work.inc\n", local: "[remote \"origin\"]\n\turl = https://example.com/team/repo.git\n", files: map[string]string{"work.inc": "[commit]\n\tgpgsign = true\n[gpg]\n\tformat = ssh\n"}},
		{name: "includeIf hasconfig elsewhere", global: "[includeIf \"hasconfig:remote.*.url:https://example.com/**\"]\n\tpath = ~/work.inc\n", local: "[remote \"origin\"]\n\turl = https://example.org/x.git\n", files: map[string]string{"work.inc": "[commit]\n\tgpgsign = true\n"}},
		{name: "system file", signs: true, env: map[string]string{"GIT_CONFIG_NOSYSTEM": "", "GIT_CONFIG_SYSTEM": "~system"}, files: map[string]string{"system": "[commit]\n\tgpgsign = true\n"}},
		{name: "XDG config", signs: true, env: map[string]string{"XDG_CONFIG_HOME": "XDG"}, files: map[string]string{"xdg/git/config": "[commit]\n\tgpgsign = true\n"}},
		{name: "GIT_CONFIG_GLOBAL", global: "[commit]\n\tgpgsign = true\n", env: map[string]string{"GIT_CONFIG_GLOBAL": "/dev/null"}},
		{name: "GIT_CONFIG_COUNT", signs: true, local: "[commit]\n\tgpgsign = false\n", env: map[string]string{"GIT_CONFIG_COUNT": "2", "GIT_CONFIG_KEY_0": "commit.gpgSign", "GIT_CONFIG_VALUE_0": "true", "GIT_CONFIG_KEY_1": "user.signingkey", "GIT_CONFIG_VALUE_1": "key::ssh-ed25519 AAAA"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			env := map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1"}
			for k, v := range tc.env {
				switch {
				case k == "XDG_CONFIG_HOME":
					v = filepath.Join(home, strings.ToLower(v))
				case strings.HasPrefix(v, "~"):
					v = filepath.Join(home, v[1:])
				}
				env[k] = v
			}
			write := func(path, content string) {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(home, ".gitconfig"), tc.global)
			for name, content := range tc.files {
				write(filepath.Join(home, name), content)
			}
			dir := filepath.Join(home, "repo")
			gittest.At(t, home).Git("init", "-q", "-b", "main", dir)
			if tc.branch != "" {
				gittest.At(t, dir).Git("checkout", "-q", "-b", tc.branch)
			}
			config := filepath.Join(dir, ".git", "config")
			data, err := os.ReadFile(config)
			if err != nil {
				t.Fatal(err)
			}
			write(config, string(data)+tc.local)
			g, err := Open(dir, Options{Getenv: func(k string) string { return env[k] }})
			if err != nil {
				t.Fatal(err)
			}
			s, err := g.SigningSettings()
			if err != nil {
				t.Fatal(err)
			}
			gpgsign := gitSays(t, dir, env, "--type=bool", "commit.gpgsign") == "true"
			if gpgsign != tc.signs {
				t.Fatalf("git says commit.gpgsign is %v, the case expects %v", gpgsign, tc.signs)
			}
			if s.GPGSign != gpgsign {
				t.Errorf("commit.gpgsign: %v, git says %v", s.GPGSign, gpgsign)
			}
			if want := strings.ToLower(gitSays(t, dir, env, "gpg.format")); s.Format != want {
				t.Errorf("gpg.format: %q, git says %q", s.Format, want)
			}
			if want := gitSays(t, dir, env, "user.signingkey"); s.SigningKey != want {
				t.Errorf("user.signingkey: %q, git says %q", s.SigningKey, want)
			}
			if want := gitSays(t, dir, env, "user.email"); s.CommitterEmail != want {
				t.Errorf("user.email: %q, git says %q", s.CommitterEmail, want)
			}
		})
	}
}

// TestGitConfigParametersAsGitPassesThem reads the GIT_CONFIG_PARAMETERS
// that git itself hands to the programs it runs for `git -c`.
func TestGitConfigParametersAsGitPassesThem(t *testing.T) {
	dir := t.TempDir()
	gittest.At(t, dir).Git("init", "-q", "-b", "main", dir)
	params := gittest.At(t, dir).Git(
		"-c", "alias.params=!printenv GIT_CONFIG_PARAMETERS",
		"-c", "commit.gpgSign", "-c", "user.signingkey=it's ~/key", "-c", "includeIf.gitdir:~/x/.path=a=b",
		"params")
	g, err := Open(dir, Options{Getenv: func(k string) string {
		return map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_PARAMETERS": params}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.SigningSettings()
	if err != nil || !s.GPGSign || s.SigningKey != "it's ~/key" {
		t.Errorf("settings from git -c: %+v, %v", s, err)
	}
	if v, ok, err := g.Config("includeIf.gitdir:~/x/.path"); err != nil || !ok || v != "a=b" {
		t.Errorf("a subsection with dots: %q %v %v", v, ok, err)
	}
}

// TestSigningKeyFilesAreRead: an SSH signing key named by a path is read
// from the home directory or the work tree, with its .pub beside it.
func TestSigningKeyFilesAreRead(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "repo")
	gittest.At(t, home).Git("init", "-q", "-b", "main", dir)
	for path, content := range map[string]string{
		filepath.Join(home, ".ssh", "id"): "private", filepath.Join(home, ".ssh", "id.pub"): "public",
		filepath.Join(dir, "keys", "k"): "in the work tree",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ key, file, pub string }{
		{"~/.ssh/id", "private", "public"},
		{"keys/k", "in the work tree", ""},
		{"key::ssh-ed25519 AAAA", "", ""},
	} {
		env := map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_PARAMETERS": "'gpg.format'='ssh' 'user.signingkey'='" + tc.key + "'"}
		g, err := Open(dir, Options{Getenv: func(k string) string { return env[k] }})
		if err != nil {
			t.Fatal(err)
		}
		s, err := g.SigningSettings()
		if err != nil || string(s.KeyFile) != tc.file || string(s.PublicKeyFile) != tc.pub {
			t.Errorf("%s: key file %q, .pub %q, %v", tc.key, s.KeyFile, s.PublicKeyFile, err)
		}
	}
}

func TestBrokenGitConfigIsAnError(t *testing.T) {
	for name, local := range map[string]string{
		"not a boolean": "[commit]\n\tgpgsign = maybe\n",
		"syntax":        "[commit\n",
		"include loop":  "[include]\n\tpath = config\n",
	} {
		dir := t.TempDir()
		gittest.At(t, dir).Git("init", "-q", "-b", "main", dir)
		config := filepath.Join(dir, ".git", "config")
		f, err := os.OpenFile(config, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(local); err != nil {
			t.Fatal(err)
		}
		f.Close()
		g, err := Open(dir, Options{Getenv: func(k string) string { return map[string]string{"GIT_CONFIG_NOSYSTEM": "1"}[k] }})
		if err != nil {
			if name != "syntax" {
				t.Fatalf("%s: %v", name, err)
			}
			// go-git itself cannot read the broken file: also an error, never a silent default.
			continue
		}
		if _, err := g.SigningSettings(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestNoHomeNoHomeFiles: without HOME, git cannot expand ~/ and refuses the
// configuration; it is never read relative to the working directory.
func TestNoHomeNoHomeFiles(t *testing.T) {
	dir := t.TempDir()
	gittest.At(t, dir).Git("init", "-q", "-b", "main", dir)
	config := filepath.Join(dir, ".git", "config")
	data, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, append(data, "[include]\n\tpath = ~/inc\n[includeIf \"gitdir:~/\"]\n\tpath = inc\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	cwd := t.TempDir()
	if err := os.WriteFile(filepath.Join(cwd, "inc"), []byte("[commit]\n\tgpgsign = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(cwd)
	g, err := Open(dir, Options{Getenv: func(k string) string { return map[string]string{"GIT_CONFIG_NOSYSTEM": "1"}[k] }})
	if err != nil {
		t.Fatal(err)
	}
	if s, err := g.SigningSettings(); err == nil || !strings.Contains(err.Error(), "~/inc") || s.GPGSign {
		t.Errorf("without HOME: %+v, %v", s, err)
	}
}

// TestGitConfigVariableIsNotRead: GIT_CONFIG makes `git config` read one
// file instead of all the others, and no other git command reads it: the
// configuration small-hook reads is the one `git commit` uses.
func TestGitConfigVariableIsNotRead(t *testing.T) {
	dir := t.TempDir()
	gittest.At(t, dir).Git("init", "-q", "-b", "main", dir)
	gittest.At(t, dir).Git("config", "commit.gpgsign", "true")
	other := filepath.Join(t.TempDir(), "other")
	if err := os.WriteFile(other, []byte("[user]\n\temail = other@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Open(dir, Options{Getenv: func(k string) string {
		return map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG": other}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.SigningSettings()
	if err != nil || !s.GPGSign || s.CommitterEmail == "other@example.com" {
		t.Errorf("with GIT_CONFIG set: %+v, %v", s, err)
	}
}
