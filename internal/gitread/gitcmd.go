package gitread

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strconv"
	"strings"
)

// passedEnv lists the variables of the hook's environment (read through
// Options.Getenv, never from the process) that the git commands small-hook
// runs receive: where the repository and its objects are, git's
// configuration, identities, and what git needs to fetch the missing
// objects of a partial clone. GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n>
// follow GIT_CONFIG_COUNT. GIT_CONFIG is not passed: only `git config`
// reads it (instead of every other file), so passing it would show small-hook
// another configuration than the one `git commit` uses.
var passedEnv = []string{
	"PATH", "HOME", "USERPROFILE", "XDG_CONFIG_HOME", "EMAIL", "TMPDIR", "TZ",
	"LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LC_CTYPE",
	"SSH_AUTH_SOCK", "GNUPGHOME",
	"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE",
	"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_NAMESPACE",
	"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_QUARANTINE_PATH",
	"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
	"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM",
	"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
	"GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_AUTHOR_DATE",
	"GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL", "GIT_COMMITTER_DATE",
	"GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_TERMINAL_PROMPT",
	"GIT_SSL_NO_VERIFY", "GIT_SSL_CAINFO", "GIT_SSL_CAPATH", "GIT_PROXY_COMMAND",
	"GIT_ALLOW_PROTOCOL", "GIT_PROTOCOL_FROM_USER", "GIT_HTTP_USER_AGENT", "GIT_EXEC_PATH",
}

// fixedEnv is set for every git command small-hook runs, whatever the
// environment says. Replacement objects (refs/replace, which a push can
// carry) would make git show other objects than the ones a commit is made
// of: small-hook judges the objects themselves. No optional lock is taken,
// so that no command writes to the repository.
var fixedEnv = []string{"GIT_NO_REPLACE_OBJECTS=1", "GIT_OPTIONAL_LOCKS=0"}

// Git runs git commands on one repository: in dir, with env.
type Git struct {
	dir string
	env []string
}

// NewGit returns a runner for git in dir, with the environment opts
// hands over; override replaces variables of it (an empty value removes
// one).
func NewGit(dir string, opts Options, override map[string]string) *Git {
	var env []string
	add := func(name string) {
		if _, over := override[name]; over {
			return
		}
		if v := opts.Env(name); v != "" {
			env = append(env, name+"="+v)
		}
	}
	for _, name := range passedEnv {
		add(name)
	}
	if n, err := strconv.Atoi(opts.Env("GIT_CONFIG_COUNT")); err == nil {
		for i := 0; i < n && i < 1<<16; i++ {
			add(fmt.Sprintf("GIT_CONFIG_KEY_%d", i))
			add(fmt.Sprintf("GIT_CONFIG_VALUE_%d", i))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(override)) {
		if v := override[name]; v != "" {
			env = append(env, name+"="+v)
		}
	}
	return &Git{dir: dir, env: append(env, fixedEnv...)}
}

// command returns the git command with args, ready to run.
func (g *Git) command(args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = g.dir
	cmd.Env = g.env
	return cmd
}

// GitError is a git command that failed: its arguments and what it said.
type GitError struct {
	args   []string
	code   int
	Stderr string
}

func (e *GitError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = fmt.Sprintf("exit status %d", e.code)
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.args, " "), msg)
}

// Output runs git with args and returns its standard output. A failure is a
// *gitError that carries git's own message.
func (g *Git) Output(args ...string) ([]byte, error) {
	cmd := g.command(args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return stdout.Bytes(), &GitError{args: args, code: exit.ExitCode(), Stderr: stderr.String()}
	}
	if err != nil {
		return nil, fmt.Errorf("running git %s: %w", strings.Join(args, " "), err)
	}
	return stdout.Bytes(), nil
}

// stream runs git with args and hands its standard output to read as it
// comes. An error of read stops git; a failure of git is a *gitError.
func (g *Git) stream(read func(*bufio.Reader) error, args ...string) error {
	cmd := g.command(args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("running git %s: %w", strings.Join(args, " "), err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("running git %s: %w", strings.Join(args, " "), err)
	}
	readErr := read(bufio.NewReaderSize(out, 64<<10))
	if readErr != nil {
		cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	var exit *exec.ExitError
	switch {
	case readErr == nil && errors.As(waitErr, &exit):
		return &GitError{args: args, code: exit.ExitCode(), Stderr: stderr.String()}
	case readErr == nil && waitErr != nil:
		return fmt.Errorf("running git %s: %w", strings.Join(args, " "), waitErr)
	}
	return readErr
}

// Line runs git with args and returns the first line of its output.
func (g *Git) Line(args ...string) (string, error) {
	out, err := g.Output(args...)
	if err != nil {
		return "", err
	}
	first, _, _ := strings.Cut(string(out), "\n")
	return first, nil
}

// ExitCode returns the exit code of a failed git command, or -1 when err is
// not one.
func ExitCode(err error) int {
	var ge *GitError
	if errors.As(err, &ge) {
		return ge.code
	}
	return -1
}
