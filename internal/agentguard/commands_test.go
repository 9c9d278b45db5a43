package agentguard

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/gittest"
)

// fixedRepository answers the judge's questions from fixed data: the
// branch checked out, the branches protected on every remote, git's
// aliases and its hooks directory.
type fixedRepository struct {
	branch    string
	protected map[string]bool
	aliases   map[string]string
	hooks     string
	asked     []string
}

func (f *fixedRepository) Branch(string) (string, error) {
	f.asked = append(f.asked, "branch")
	return f.branch, nil
}

func (f *fixedRepository) Protected(_, remote, branch string) (string, error) {
	f.asked = append(f.asked, "protected "+remote+" "+branch)
	if f.protected[branch] {
		return "protected", nil
	}
	return "", nil
}

func (f *fixedRepository) Alias(_, name string) (string, error) {
	f.asked = append(f.asked, "alias "+name)
	return f.aliases[name], nil
}

func (f *fixedRepository) HooksDir(string) (string, error) {
	f.asked = append(f.asked, "hooks")
	return f.hooks, nil
}

func newFixed() *fixedRepository {
	return &fixedRepository{branch: "feature", protected: map[string]bool{"main": true, "release": true},
		aliases: map[string]string{"ci": "commit --no-verify", "yolo": "!git push -f origin main", "st": "status"}, hooks: "/repo/.githooks"}
}

// refused returns the refusals' Why texts of script, one line each.
func refused(t *testing.T, script string, repo Repository) string {
	t.Helper()
	rs, err := JudgeCommand(script, "/repo", repo)
	if err != nil {
		t.Fatal(err)
	}
	var whys []string
	for _, r := range rs {
		whys = append(whys, r.Why)
	}
	return strings.Join(whys, "\n")
}

// TestJudgeCommand lists the commands the guard refuses and the ones it
// lets run, each with a phrase of the reason it gives.
func TestJudgeCommand(t *testing.T) {
	for _, tc := range []struct {
		script, want string // want "" means allowed
	}{
		{"git commit -m x", ""},
		{"git commit -n -m x", "--no-verify (-n) skips"},
		{"git commit -am x --no-verify", "--no-verify (-n) skips"},
		{"git commit -m -n", ""},
		{"git commit -nm x", "--no-verify (-n) skips"},
		{"git commit -n --verify -m x", ""},
		{"git commit -- -n", ""},
		{"git status && git commit --no-veri -m x", "--no-verify (-n) skips"},
		{"git -C sub commit -n", "--no-verify (-n) skips"},
		{"cd sub; git commit -n", "--no-verify (-n) skips"},
		{`bash -c 'git commit -n -m x'`, "--no-verify (-n) skips"},
		{`sh -ec "git commit -n"`, "--no-verify (-n) skips"},
		{"bash <<EOF\ngit commit -n\nEOF", "--no-verify (-n) skips"},
		{"cat <<EOF\ngit commit -n\nEOF", ""},
		{`eval "git commit -n"`, "--no-verify (-n) skips"},
		{"env A=1 git commit -n", "--no-verify (-n) skips"},
		{"sudo -u me git commit -n", "--no-verify (-n) skips"},
		{"timeout 10 git commit -n", "--no-verify (-n) skips"},
		{"echo x | xargs git commit -n", "--no-verify (-n) skips"},
		{"/usr/bin/git commit -n", "--no-verify (-n) skips"},
		{"git ci -m x", "git ci is an alias for commit --no-verify"},
		{"git st", ""},
		{`git -c alias.c="commit -n" c -m x`, "git c is an alias for commit -n"},
		{`git config alias.ci "commit --no-verify"`, "defines the alias ci"},
		{`git config alias.lg "log --oneline"`, ""},
		{"git merge --no-verify topic", "--no-verify skips the commit-msg hook"},
		{"git merge -n topic", ""},
		{"git push --no-verify", "--no-verify skips the pre-push hook"},
		{"git push", ""},
		{"git push -f", ""},
		{"git push -f origin feature", ""},
		{"git push -f origin main", "force-pushing main (protected)"},
		{"git push origin +main", "force-pushing main (protected)"},
		{"git push origin +HEAD:refs/heads/release", "force-pushing release (protected)"},
		{"git push --force-with-lease origin main", "force-pushing main (protected)"},
		{"git push --force-with-lease --no-force-with-lease origin main", ""},
		{"git push -fu origin main", "force-pushing main (protected)"},
		{"git push origin main", ""},
		{"git push origin :main", "deleting main (protected)"},
		{"git push -d origin release", "deleting release (protected)"},
		{"git push --mirror", "--mirror force-updates"},
		{"git push -f --all", "a forced push of --all"},
		{"git push origin HEAD:refs/heads/feature-2", ""},
		{"git replace HEAD~1 HEAD", "git replace makes git show another object"},
		{"git replace -l", ""},
		{"git replace", ""},
		{"git replace -d abc", ""},
		{"git update-ref refs/heads/main HEAD~2", "git update-ref moves main"},
		{"git update-ref refs/heads/feature HEAD~2", ""},
		{"git update-ref refs/replace/abc def", "a ref under refs/replace/"},
		{"git update-ref -d refs/heads/release", "git update-ref moves release"},
		{"git config core.hooksPath /dev/null", "changes core.hooksPath"},
		{"git config --global core.hookspath x", "changes core.hooksPath"},
		{"git config --unset core.hooksPath", "changes core.hooksPath"},
		{"git config set core.hooksPath x", "changes core.hooksPath"},
		{"git config core.hooksPath", ""},
		{"git config --get core.hooksPath", ""},
		{"git config include.path ../other", "includes another configuration file"},
		{"git config --remove-section core", "removes or renames the core section"},
		{"git -c core.hooksPath=/dev/null commit -m x", "git -c changes core.hooksPath"},
		{"git --config-env=core.hooksPath=HP commit -m x", "--config-env sets core.hooksPath"},
		{"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=x git commit", "GIT_CONFIG_KEY_0 sets core.hooksPath"},
		{"SKIP=small-hook-commit-msg git commit -m x", "makes the pre-commit framework skip small-hook's hook small-hook-commit-msg"},
		{"SKIP=flake8 git commit -m x", ""},
		{"export SKIP=black,small-hook", "skip small-hook's hook small-hook"},
		{"SMALL_HOOK_ACTOR=human git commit -m x", "SMALL_HOOK_ACTOR=human claims"},
		{"SMALL_HOOK_ACTOR=agent git commit -m x", ""},
		{"SMALL_HOOK_REWRITE=cleanup git commit -m x", "SMALL_HOOK_REWRITE marks a rewrite"},
		{`git commit -m "x" -m "Small-Actor: human"`, "claims Small-Actor: human"},
		{`git commit -m "x" --trailer "Small-Rewrite=tidy"`, "gives a Small-Rewrite trailer"},
		{`git commit -m "x" -m "Small-Actor: agent"`, ""},
		{"small-hook uninstall", "removes the git hooks"},
		{"pre-commit uninstall", "removes the git hooks that run small-hook's checks"},
		{"rm .git/hooks/pre-commit", "one of git's hooks"},
		{"echo exit 0 > .git/hooks/commit-msg", "writes .git/hooks/commit-msg"},
		{"chmod -x .githooks/pre-commit", "one of the hooks git runs (core.hooksPath is /repo/.githooks)"},
		{"rm src/pre-commit", ""},
		{"cat .git/hooks/pre-commit", ""},
		{"cp .git/hooks/pre-commit /tmp/x", ""},
		{"sed -i s/x/y/ .git/config", "git's configuration"},
		{"sed s/x/y/ .git/config", ""},
		{"git commit -m $MSG -n", "--no-verify (-n) skips"},
	} {
		got := refused(t, tc.script, newFixed())
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s:\ngot  %q\nwant %q", tc.script, got, tc.want)
		}
	}
}

// TestJudgeAsksOnlyWhatItNeeds checks that a command that cannot switch
// anything off asks the repository nothing.
func TestJudgeAsksOnlyWhatItNeeds(t *testing.T) {
	for _, script := range []string{"git status", "git commit -m x", "ls -la && go test ./...", "rm -rf build", "git push origin feature"} {
		repo := newFixed()
		refused(t, script, repo)
		if len(repo.asked) > 0 {
			t.Errorf("%s: asked %v", script, repo.asked)
		}
	}
}

type failingRepository struct{ fixedRepository }

func (*failingRepository) Protected(string, string, string) (string, error) {
	return "", errors.New("no repository")
}

func TestJudgeReportsWhatItCouldNotAsk(t *testing.T) {
	if _, err := JudgeCommand("git push -f origin main", "/repo", &failingRepository{}); err == nil {
		t.Error("no error")
	}
}

// TestNoVerifyAgreesWithGit runs git commit and git merge with each
// command line in a repository whose pre-commit and commit-msg hooks leave
// a mark, and checks that the guard refuses a command exactly when git
// made the commit without running them. Where git refuses the command
// line, nothing runs and the guard's verdict does not matter.
func TestNoVerifyAgreesWithGit(t *testing.T) {
	r := gittest.New(t)
	for _, hook := range []string{"pre-commit", "commit-msg"} {
		if err := os.WriteFile(r.Path(".git/hooks/"+hook), []byte("#!/bin/sh\necho ran >> \"$(git rev-parse --git-dir)/hooks-ran\"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.Write("a", "0")
	r.Git("add", "a")
	r.Git("commit", "-q", "-m", "root")
	r.Git("branch", "topic")
	for i, args := range [][]string{
		{"commit", "-m", "x"},
		{"commit", "-n", "-m", "x"},
		{"commit", "-nm", "x"},
		{"commit", "-mn"},
		{"commit", "-m", "-n"},
		{"commit", "-anm", "x"},
		{"commit", "--no-verify", "-m", "x"},
		{"commit", "--no-verif", "-m", "x"},
		{"commit", "--no-veri", "-m", "x"},
		{"commit", "--no-ver", "-m", "x"},
		{"commit", "-n", "--verify", "-m", "x"},
		{"commit", "--verify", "-n", "-m", "x"},
		{"commit", "--verif", "-m", "x"},
		{"commit", "--no-no-verify", "-m", "x"},
		{"commit", "-m", "x", "-n", "--", "a"},
		{"commit", "-m", "x", "--", "-n"},
		{"commit", "--message", "-n"},
		{"commit", "--message=-n", "-n"},
		{"commit", "-S", "-n", "-m", "x"},
		{"commit", "-Sn", "-m", "x"},
		{"commit", "-un", "-m", "x"},
		{"commit", "--untracked-files", "-n", "-m", "x"},
		{"commit", "-F-", "-n"},
		{"-c", "core.hooksPath=/nonexistent", "commit", "-m", "x"},
		{"-c", "alias.c=commit -n", "c", "-m", "x"},
		{"merge", "--no-ff", "--no-verify", "-m", "x", "topic"},
		{"merge", "--no-ff", "-n", "-m", "x", "topic"},
		{"merge", "--no-ff", "--no-verif", "-m", "x", "topic"},
		{"merge", "--no-ff", "-m", "x", "topic"},
	} {
		if args[0] == "merge" {
			r.Git("checkout", "-q", "topic")
			r.Write("t", strings.Repeat("t", i+1))
			r.Git("add", "t")
			r.Git("commit", "-q", "-n", "-m", "topic")
			r.Git("checkout", "-q", "main")
		}
		r.Write("a", strings.Repeat("x", i+1))
		r.Git("add", "a")
		marks := r.Path(".git/hooks-ran")
		os.Remove(marks)
		before := r.Git("rev-parse", "HEAD")
		_, runErr := r.Try(args...)
		after := r.Git("rev-parse", "HEAD")
		_, statErr := os.Stat(marks)
		committed, hooksRan := before != after, statErr == nil
		guard := refused(t, "git "+shellQuote(args), newFixed()) != ""
		switch {
		case !committed:
			// git refused the line or found nothing to do: nothing ran.
		case guard != !hooksRan:
			t.Errorf("git %q: committed, hooks ran %v (%v), but the guard refuses it: %v", args, hooksRan, runErr, guard)
		}
		r.Git("reset", "-q", "--hard", "HEAD")
	}
}

// TestForcePushAgreesWithGit pushes with each command line to a bare
// repository whose main and release the local branches have diverged from,
// and checks that the guard refuses a push exactly when git rewrote or
// deleted one of them on the remote, or pushed without running the
// pre-push hook.
func TestForcePushAgreesWithGit(t *testing.T) {
	tmp := t.TempDir()
	template := gittest.At(t, filepath.Join(tmp, "remote"))
	local := gittest.At(t, filepath.Join(tmp, "local"))
	for _, args := range [][]string{{"init", "-q", "--bare", "-b", "main", template.Dir}, {"clone", "-q", template.Dir, local.Dir}} {
		if _, err := gittest.Run(tmp, gittest.Env(), nil, args...); err != nil {
			t.Fatal(err)
		}
	}
	local.Write("f", "1")
	local.Commit("one")
	local.Git("push", "-q", "origin", "main", "main:release")
	local.Git("reset", "-q", "--hard", "HEAD")
	local.Write("f", "2")
	local.Git("commit", "-q", "--amend", "-am", "one, rewritten")
	local.Git("branch", "-q", "release")
	if err := os.WriteFile(local.Path(".git/hooks/pre-push"), []byte("#!/bin/sh\necho ran >> \"$(git rev-parse --git-dir)/hooks-ran\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := newFixed()
	repo.branch = "main"
	for i, args := range [][]string{
		{"push", "origin", "main"},
		{"push", "-f", "origin", "main"},
		{"push", "--force", "origin", "main"},
		{"push", "--forc", "origin", "main"},
		{"push", "origin", "+main"},
		{"push", "origin", "+main:refs/heads/main"},
		{"push", "origin", "+HEAD:release"},
		{"push", "--force-with-lease", "origin", "main"},
		{"push", "--force-with-lease=main", "origin", "main"},
		{"push", "-fu", "origin", "main"},
		{"push", "-uf", "origin", "release"},
		{"push", "-f"},
		{"push", "origin", "main", "-f"},
		{"push", "origin", ":release"},
		{"push", "-d", "origin", "release"},
		{"push", "--delete", "origin", "release"},
		{"push", "--no-verify", "origin", "HEAD:refs/heads/new"},
		{"push", "--no-verif", "origin", "HEAD:refs/heads/new"},
		{"push", "origin", "HEAD:refs/heads/new"},
		{"push", "--mirror", "origin"},
		{"push", "-f", "--all", "origin"},
		{"push", "-n", "-f", "origin", "main"},
	} {
		remote := filepath.Join(tmp, "remote-"+strings.Repeat("x", i+1))
		if err := gittest.CopyTree(template.Dir, remote); err != nil {
			t.Fatal(err)
		}
		local.Git("remote", "set-url", "origin", remote)
		local.Git("fetch", "-q", "--prune", "origin")
		marks := local.Path(".git/hooks-ran")
		os.Remove(marks)
		refs := func() string { return gittest.At(t, remote).Git("for-each-ref", "--format=%(refname) %(objectname)") }
		before := refs()
		_, runErr := local.Try(args...)
		after := refs()
		_, statErr := os.Stat(marks)
		rewritten := false
		for _, line := range strings.Split(before, "\n") {
			if !strings.Contains(after, line) {
				rewritten = true // a ref the remote had moved away or is gone
			}
		}
		pushedUnchecked := after != before && statErr != nil
		guard := refused(t, "git "+shellQuote(args), repo) != ""
		if guard != (rewritten || pushedUnchecked) {
			t.Errorf("git %q: rewrote a ref %v, pushed without the hook %v (%v), but the guard refuses it: %v", args, rewritten, pushedUnchecked, runErr, guard)
		}
	}
}

// shellQuote writes args as one shell command line.
func shellQuote(args []string) string {
	var out []string
	for _, a := range args {
		out = append(out, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	return strings.Join(out, " ")
}
