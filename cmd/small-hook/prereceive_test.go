package main

import (
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/small-hook/small-hook/internal/push"
)

// server is a bare repository that received main from a workspace
// repository and has small-hook's pre-receive hook installed; the
// workspace repository pushes to it as the remote "server".
type server struct {
	dir string
}

// newServer makes r's main the server's default branch, installs the
// pre-receive hook and adds the remote "server" to r with url (a file://
// URL of the server's directory when url is "").
func newServer(t *testing.T, r *testRepo, url string) server {
	t.Helper()
	s := server{dir: filepath.Join(t.TempDir(), "server.git")}
	r.Git("clone", "-q", "--bare", r.Dir, s.dir)
	out, ok := runIn(t, s.dir, binEnv(t), smallHook.path(t), "install")
	if !ok || !strings.Contains(out, "pre-receive: installed") {
		t.Fatalf("install in the bare repository: %s", out)
	}
	if url == "" {
		url = "file://" + s.dir
	}
	r.Git("remote", "add", "server", url)
	r.Git("fetch", "-q", "server")
	return s
}

// pushTo pushes to the server with extra environment and returns git's
// output and whether the push went through.
func pushTo(t *testing.T, r *testRepo, extra []string, args ...string) (string, bool) {
	t.Helper()
	return runIn(t, r.Dir, cleanEnv(extra...), "git", append([]string{"push", "server"}, args...)...)
}

// refused fails the test unless a push was refused with remote: lines
// that name the ref, the commit, the file and the rule.
func refused(t *testing.T, what, out string, ok bool, ref, commit, path, rule string) {
	t.Helper()
	if ok {
		t.Fatalf("%s went through:\n%s", what, out)
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "remote: "+path) && strings.Contains(line, rule) && strings.Contains(line, ref) &&
			(commit == "" || strings.Contains(line, commit[:12])) {
			return
		}
	}
	t.Fatalf("%s: no remote: line names %s, commit %.12s, %s and %s:\n%s", what, ref, commit, path, rule, out)
}

// accepted fails the test unless the push went through.
func accepted(t *testing.T, what, out string, ok bool) {
	t.Helper()
	if !ok {
		t.Fatalf("%s was refused:\n%s", what, out)
	}
}

// serverHas reports the commit the server's ref points to, "" when none.
func serverHas(t *testing.T, s server, ref string) string {
	t.Helper()
	out, ok := runIn(t, s.dir, cleanEnv(), "git", "rev-parse", "--verify", "-q", ref)
	if !ok {
		return ""
	}
	return strings.TrimSpace(out)
}

// TestPreReceiveRefusesWhatTheRangeCheckRefuses: through real pushes over
// file://, the pre-receive hook refuses every kind of change the range
// check refuses, each on its own push, and accepts a legitimate append.
func TestPreReceiveRefusesWhatTheRangeCheckRefuses(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	s := newServer(t, r, "")
	appendProgress(r, "an append", 21)
	out, ok := pushTo(t, r, nil, "main")
	accepted(t, "a legitimate append", out, ok)

	cases := []struct {
		name, path, rule string
		change           func() string
	}{
		{"a rewritten progress entry", progressPath, "small/append-only", func() string {
			rewriteProgress(r)
			return r.Commit("rewrite")
		}},
		{"an agent's intent edit", intentPath, "small/ownership", func() string {
			editIntent(r, "an agent's intent")
			return r.Commit("Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
		}},
		{"a secret", progressPath, "secrets/aws-access-token", func() string {
			r.Write(progressPath, r.Read(progressPath)+progressEntry("deployed with "+fakeAWS, 22))
			return r.Commit("deploy")
		}},
		{"an entry without evidence", progressPath, "small/evidence", func() string {
			r.Write(progressPath, r.Read(progressPath)+strings.Replace(progressEntry("x", 22), "evidence: x", "notes: none", 1))
			return r.Commit("no evidence")
		}},
	}
	for _, c := range cases {
		before := r.Git("rev-parse", "HEAD")
		commit := c.change()
		out, ok := pushTo(t, r, nil, "main")
		refused(t, c.name, out, ok, "refs/heads/main", commit, c.path, c.rule)
		if got := serverHas(t, s, "refs/heads/main"); got != before {
			t.Fatalf("%s: the server's main moved to %s", c.name, got)
		}
		r.Git("reset", "-q", "--hard", before)
	}

	// A force-push whose new commits are each clean but drop entries.
	old := r.Git("rev-parse", "HEAD")
	r.Git("reset", "-q", "--hard", "HEAD~1")
	next := appendProgress(r, "a different append", 23)
	out, ok = pushTo(t, r, nil, "--force", "main")
	refused(t, "a force-push that drops an entry", out, ok, "refs/heads/main", next, progressPath, "small/append-only")
	if !strings.Contains(out, "does not contain its previous tip "+old[:12]) {
		t.Errorf("the force-push finding does not name the tip it replaces:\n%s", out)
	}
}

// TestPreReceiveNewBranchesTagsAndDeletions: new branches and tags at
// commits the server has pass; a new branch or an annotated tag bringing a
// bad commit is refused; deleting the default branch or a branch
// push.protect names is refused, deleting another branch is not; one bad
// ref refuses the whole push.
func TestPreReceiveNewBranchesTagsAndDeletions(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", "push:\n  protect: [\"release/*\"]\n")
	r.Commit("protect release branches")
	s := newServer(t, r, "")
	r.Git("tag", "v1")
	r.Git("tag", "-a", "v1-annotated", "-m", "v1")
	r.Git("branch", "topic")
	r.Git("branch", "release/1")
	out, ok := pushTo(t, r, nil, "v1", "v1-annotated", "topic", "release/1")
	accepted(t, "new branches and tags at a known commit", out, ok)

	r.Git("checkout", "-q", "-b", "bad")
	rewriteProgress(r)
	bad := r.Commit("rewrite")
	r.Git("tag", "-a", "v2", "-m", "v2")
	out, ok = pushTo(t, r, nil, "bad")
	refused(t, "a new branch with a rewrite", out, ok, "refs/heads/bad", bad, progressPath, "small/append-only")
	out, ok = pushTo(t, r, nil, "v2")
	refused(t, "an annotated tag of a rewrite", out, ok, "refs/tags/v2", bad, progressPath, "small/append-only")

	r.Git("checkout", "-q", "main")
	good := appendProgress(r, "an append", 21)
	out, ok = pushTo(t, r, nil, "main", "bad")
	refused(t, "a push of a good and a bad branch", out, ok, "refs/heads/bad", bad, progressPath, "small/append-only")
	if serverHas(t, s, "refs/heads/main") == good {
		t.Fatal("one verdict per push: the good branch of a refused push was updated")
	}

	for ref, wantRefused := range map[string]bool{"main": true, "release/1": true, "topic": false} {
		out, ok := pushTo(t, r, nil, ":"+ref)
		if !wantRefused {
			accepted(t, "deleting "+ref, out, ok)
			continue
		}
		refused(t, "deleting "+ref, out, ok, "refs/heads/"+ref, "", "refs/heads/"+ref, "push/protected")
	}

	// The messages' advice: a human removes the branch from push.protect
	// on the default branch first; the default branch is changed on the
	// server first.
	r.Git("reset", "-q", "--hard", serverHas(t, s, "refs/heads/main"))
	r.Write(".small-hook.yml", "push:\n  protect: []\n")
	r.Commit("release branches may go")
	out, ok = pushTo(t, r, nil, "main")
	accepted(t, "the configuration change", out, ok)
	out, ok = pushTo(t, r, nil, ":release/1")
	accepted(t, "deleting a branch push.protect no longer names", out, ok)
	out, ok = pushTo(t, r, nil, "main:next")
	accepted(t, "a new branch at main", out, ok)
	r.Git("-C", s.dir, "symbolic-ref", "HEAD", "refs/heads/next")
	out, ok = pushTo(t, r, nil, ":main")
	accepted(t, "deleting main once the default branch is another", out, ok)
}

// TestPreReceivePolicyComesFromTheDefaultBranch: a pushed commit that
// turns off the rule its own rewrite breaks is judged by the default
// branch's configuration; once a human's change to the configuration is
// on the default branch, it applies.
func TestPreReceivePolicyComesFromTheDefaultBranch(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	newServer(t, r, "")
	r.Write(".small-hook.yml", "rules:\n  small/append-only: off\n")
	rewriteProgress(r)
	commit := r.Commit("relax the rules and rewrite")
	out, ok := pushTo(t, r, nil, "main")
	refused(t, "a push that brings its own configuration", out, ok, "refs/heads/main", commit, progressPath, "small/append-only")

	r.Git("reset", "-q", "--hard", "HEAD~1")
	r.Write(".small-hook.yml", "rules:\n  small/evidence: off\n")
	r.Commit("a human turns small/evidence off")
	out, ok = pushTo(t, r, nil, "main")
	accepted(t, "the configuration change", out, ok)
	r.Write(progressPath, r.Read(progressPath)+strings.Replace(progressEntry("x", 22), "evidence: x", "notes: none", 1))
	r.Commit("an entry without evidence")
	out, ok = pushTo(t, r, nil, "main")
	accepted(t, "an entry the default branch's configuration allows", out, ok)
}

// TestPreReceiveAgentPusher: the server names the account it
// authenticated; with attribution.agents: [{pusher: claude-bot}], every
// commit that account pushes is an agent's, whatever its trailers say,
// and whatever case the server spells the account in (GitLab, Gitea,
// Forgejo and GitHub match account names case-insensitively). The
// finding names the account, not a co-author trailer the commit does not
// have, and its advice (a human's account pushes it) works.
func TestPreReceiveAgentPusher(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", "attribution:\n  agents:\n    - pusher: claude-bot\n")
	r.Commit("claude-bot is an agent account")
	newServer(t, r, "")
	editIntent(r, "a new intent")
	commit := r.Commit("Refine intent\n\nSmall-Actor: human")
	for _, v := range push.PusherVars() {
		for _, account := range []string{"claude-bot", "Claude-Bot"} {
			out, ok := pushTo(t, r, []string{v + "=" + account}, "main")
			refused(t, "an intent edit the agent account "+account+" pushes ("+v+")", out, ok, "refs/heads/main", commit, intentPath, "small/ownership")
			if !strings.Contains(out, "pushed by the agent account "+account+" ("+v+")") || !strings.Contains(out, "a human's account pushes it: the agent account "+account+" ("+v+") pushed it") {
				t.Errorf("%s=%s: the finding does not say who pushed:\n%s", v, account, out)
			}
			if strings.Contains(out, "co-author") {
				t.Errorf("%s=%s: the finding blames a co-author the commit does not have:\n%s", v, account, out)
			}
		}
	}
	out, ok := pushTo(t, r, []string{"GL_USERNAME=jane"}, "main")
	accepted(t, "the same commit pushed by a human's account", out, ok)
}

// TestPreReceiveLargePushInQuarantine: a push of more objects than
// receive.unpackLimit arrives as a pack in the quarantine directory, and
// is judged from there, over file:// and over git's own protocol to a git
// daemon.
func TestPreReceiveLargePushInQuarantine(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	s := newServer(t, r, "")
	for i := 0; i < 150; i++ {
		r.Write(fmt.Sprintf("docs/page-%03d.md", i), fmt.Sprintf("page %d\n", i))
	}
	rewriteProgress(r)
	commit := r.Commit("150 pages and a rewrite")
	if n := countPacks(t, s.dir); n != 0 {
		t.Fatalf("the server starts with %d packs", n)
	}
	out, ok := pushTo(t, r, nil, "main")
	refused(t, "a large push with a rewrite", out, ok, "refs/heads/main", commit, progressPath, "small/append-only")

	r.Git("reset", "-q", "--hard", "HEAD~1")
	for i := 0; i < 150; i++ {
		r.Write(fmt.Sprintf("docs/page-%03d.md", i), fmt.Sprintf("page %d\n", i))
	}
	appendProgress(r, "150 pages and an append", 21)
	out, ok = pushTo(t, r, nil, "main")
	accepted(t, "a large legitimate push", out, ok)
	if n := countPacks(t, s.dir); n != 1 {
		t.Fatalf("the push kept %d packs; it should have arrived as one", n)
	}
}

// countPacks counts the packs of a repository.
func countPacks(t *testing.T, gitDir string) int {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(gitDir, "objects", "pack", "*.pack"))
	if err != nil {
		t.Fatal(err)
	}
	return len(matches)
}

// gitDaemon serves base over git's own protocol on 127.0.0.1, receiving
// pushes, until the test ends; it returns the URL prefix (git://…/).
func gitDaemon(t *testing.T, base string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	port := addr[strings.LastIndex(addr, ":")+1:]
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	// git-daemon itself, not `git daemon`: the git wrapper would run it as
	// a child of its own, which killing the wrapper's pid leaves running.
	execPath, err := exec.Command("git", "--exec-path").Output()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(strings.TrimSpace(string(execPath)), "git-daemon"), "--enable=receive-pack", "--export-all",
		"--reuseaddr", "--informative-errors", "--listen=127.0.0.1", "--port="+port, "--base-path="+base, base)
	cmd.Env = cleanEnv()
	cmd.WaitDelay = 10 * time.Second
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting git daemon: %v", err)
	}
	t.Cleanup(func() {
		if err := cmd.Process.Kill(); err != nil {
			t.Errorf("stopping git daemon (pid %d): %v", cmd.Process.Pid, err)
		}
		_ = cmd.Wait()
	})
	deadline := time.Now().Add(10 * time.Second)
	for {
		conn, err := net.Dial("tcp", addr)
		if err == nil {
			conn.Close()
			return "git://" + addr + "/"
		}
		if time.Now().After(deadline) {
			t.Fatalf("git daemon did not listen on %s: %v\n%s", addr, err, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPreReceiveOverGitDaemon: the same guard over git's own protocol, to
// a git daemon the test starts on 127.0.0.1: a large push with a rewrite
// is refused, a legitimate one accepted.
func TestPreReceiveOverGitDaemon(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	s := newServer(t, r, "")
	url := gitDaemon(t, filepath.Dir(s.dir)) + filepath.Base(s.dir)
	r.Git("remote", "set-url", "server", url)
	for i := 0; i < 150; i++ {
		r.Write(fmt.Sprintf("docs/page-%03d.md", i), fmt.Sprintf("page %d\n", i))
	}
	rewriteProgress(r)
	commit := r.Commit("150 pages and a rewrite")
	out, ok := pushTo(t, r, nil, "main")
	refused(t, "a push over git:// with a rewrite", out, ok, "refs/heads/main", commit, progressPath, "small/append-only")
	r.Git("reset", "-q", "--hard", "HEAD~1")
	appendProgress(r, "an append", 21)
	out, ok = pushTo(t, r, nil, "main")
	accepted(t, "a legitimate push over git://", out, ok)
}

// TestPreReceiveRefusesInputGitNeverWrites: a line that is not `<old>
// <new> <ref>` with full object ids is exit 2, naming the line; the push
// is refused, never judged by a guess.
func TestPreReceiveRefusesInputGitNeverWrites(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	head := r.Git("rev-parse", "HEAD")
	for input, want := range map[string]string{
		"not a ref update\n":                           "line 1 of standard input has 4 fields",
		push.ZeroID + " HEAD refs/heads/main\n":        `line 1 of standard input: "HEAD" is not a full object id`,
		push.ZeroID + " " + head + " refs/heads/x\n\n": "",
	} {
		var out, errOut strings.Builder
		ev := &env{stdin: strings.NewReader(input), stdout: &out, stderr: &errOut, dir: r.Dir, getenv: func(string) string { return "" }}
		code := run([]string{"check", "--pre-receive"}, ev)
		if want == "" {
			if code != exitOK {
				t.Errorf("%q: exit %d\n%s%s", input, code, out.String(), errOut.String())
			}
			continue
		}
		if code != exitFailure || !strings.Contains(errOut.String(), "pre-receive hook: could not check: "+want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", input, code, errOut.String(), want)
		}
	}
}

// TestPreReceiveOnARepositoryWithoutItsDefaultBranch: a server made with
// `git init --bare` may name a default branch no push created (HEAD is
// refs/heads/master, the pushes go to main). Nothing trusted holds a
// configuration then: the built-in one applies, and the hook says how to
// point HEAD at the branch whose configuration should apply; once HEAD
// names main, main's configuration does.
func TestPreReceiveOnARepositoryWithoutItsDefaultBranch(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	r.Write(".small-hook.yml", "rules:\n  small/evidence: off\n")
	r.Commit("small/evidence is off")
	dir := filepath.Join(t.TempDir(), "server.git")
	r.Git("init", "-q", "--bare", dir)
	r.Git("-C", dir, "symbolic-ref", "HEAD", "refs/heads/master")
	if out, ok := runIn(t, dir, binEnv(t), smallHook.path(t), "install"); !ok {
		t.Fatalf("install: %s", out)
	}
	r.Git("remote", "add", "server", "file://"+dir)
	out, ok := pushTo(t, r, nil, "main")
	accepted(t, "the first push of a clean history", out, ok)

	r.Write(progressPath, r.Read(progressPath)+strings.Replace(progressEntry("x", 22), "evidence: x", "notes: none", 1))
	commit := r.Commit("an entry without evidence")
	out, ok = pushTo(t, r, nil, "main")
	refused(t, "an entry the built-in configuration refuses", out, ok, "refs/heads/main", commit, progressPath, "small/evidence")
	advice := "git symbolic-ref HEAD refs/heads/main"
	if !strings.Contains(out, "HEAD names refs/heads/master, which does not exist") || !strings.Contains(out, advice) {
		t.Fatalf("the hook does not say why the repository's configuration is not read:\n%s", out)
	}
	if out, ok := runIn(t, dir, cleanEnv(), "git", strings.Fields(advice)[1:]...); !ok {
		t.Fatalf("the advice failed: %s", out)
	}
	out, ok = pushTo(t, r, nil, "main")
	accepted(t, "the same push once HEAD names main", out, ok)
}
