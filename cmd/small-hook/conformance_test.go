package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/gitdiff"
	"github.com/small-hook/small-hook/internal/gittest"
	"github.com/small-hook/small-hook/internal/words"
)

// origin is the history every repository shape of the conformance matrix
// is built from.
type origin struct {
	dir string
	// base holds the workspace and the sources, clean a human's progress
	// append on it, agent an agent's edit of the intent (main's tip);
	// rewritten is a branch from base that rewrites progress.
	base, clean, agent, rewritten string
}

// newOrigin builds the history: enough files in enough directories that a
// push of it is kept as a pack, a finding in main's history and one in a
// branch that rewrites it.
func newOrigin(t *testing.T) *origin {
	t.Helper()
	r := workspaceRepo(t)
	for i := 0; i < 120; i++ {
		r.Write(fmt.Sprintf("src/d%d/f%03d.go", i%7, i), fmt.Sprintf("package d%d\n\nconst F%d = %d\n", i%7, i, i))
	}
	r.Write("docs/readme.md", "docs\n")
	o := &origin{dir: r.Dir, base: r.Commit("sources")}
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	o.clean = r.Commit("progress")
	editIntent(r, "rewritten by an agent")
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "Refine intent\n\nCo-Authored-By: Claude <noreply@anthropic.com>")
	o.agent = r.Git("rev-parse", "HEAD")
	r.Git("checkout", "-q", "-b", "rewritten", o.base)
	rewriteProgress(r)
	o.rewritten = r.Commit("rewrite")
	r.Git("checkout", "-q", "main")
	r.Git("config", "uploadpack.allowFilter", "true")
	r.Git("config", "uploadpack.allowAnySHA1InWant", "true")
	return o
}

// writeFileMode writes a file that must not exist yet or is replaced.
func writeFileMode(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// conformanceMode is one way of running a check.
type conformanceMode struct {
	name string
	// staged modes read the index: not in bare repositories.
	staged bool
	// commitsOnly modes open the repository without its index (see
	// checkMode.commitsOnly).
	commitsOnly bool
	args        func(o *origin, msg string) []string
}

var conformanceModes = []conformanceMode{
	{"range", false, true, func(o *origin, _ string) []string { return []string{"check", "--base", o.base, "--head", "main"} }},
	{"tip", false, true, func(o *origin, _ string) []string {
		return []string{"check", "--previous", o.agent, "--head", o.rewritten}
	}},
	{"history", false, true, func(o *origin, _ string) []string { return []string{"check", "--history", "--head", "main"} }},
	{"all --rev", false, false, func(o *origin, _ string) []string { return []string{"check", "--all", "--rev", "main"} }},
	{"all", true, false, func(o *origin, _ string) []string { return []string{"check", "--all"} }},
	{"staged", true, false, func(o *origin, _ string) []string { return []string{"check"} }},
	{"commit-msg", true, false, func(o *origin, msg string) []string { return []string{"check", "--commit-msg", msg} }},
}

// stageChange stages an agent's rewrite of progress and of the intent in
// the repository at dir, with the check's environment (GIT_INDEX_FILE).
func stageChange(t *testing.T, dir string, env map[string]string) {
	t.Helper()
	r := repoAt(t, dir)
	rewriteProgress(r)
	editIntent(r, "rewritten again by an agent")
	r.Write(".small/plan.small.yml", "tasks: [\n")
	var extra []string
	for k, v := range env {
		extra = append(extra, k+"="+v)
	}
	r.GitEnv(extra, "add", "-A", ".small")
}

// shapeVerdict runs a check and returns what it decided (exit code, counts and
// findings without their messages, which may name paths of the shape) and
// the reader that served it.
func shapeVerdict(t *testing.T, dir string, env map[string]string, args []string) (string, string) {
	t.Helper()
	vars := map[string]string{}
	for k, v := range env {
		vars[k] = v
	}
	code, out, errOut := repoAt(t, dir).check(vars, append(args, "--format", "json")...)
	if code == exitFailure {
		return fmt.Sprintf("exit 2: %s", errOut), ""
	}
	rep := decodeReport(t, out)
	var lines []string
	for _, f := range rep.Findings {
		lines = append(lines, fmt.Sprintf("%s %s %s:%d %s", f.Severity, f.Rule, f.Path, f.Line, words.ShortID(f.Commit)))
	}
	sort.Strings(lines)
	return fmt.Sprintf("exit %d, %d commits, %d files\n%s", code, rep.Summary.Commits, rep.Summary.Files, strings.Join(lines, "\n")), rep.Reader
}

// TestConformanceMatrix runs every mode over every repository shape git
// builds here and wants the verdict a plain clone of the same history
// gives, read by the reader the probe must choose, and, where that is the
// fast reader, the same verdict again from git (SMALL_HOOK_READER=git).
func TestConformanceMatrix(t *testing.T) {
	t.Parallel()
	o := newOrigin(t)
	msg := filepath.Join(t.TempDir(), "COMMIT_EDITMSG")
	writeFileMode(t, msg, "Refine the workspace\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n")
	reference := map[string]string{}
	plain := gittest.Shapes()[0]
	dir, env := plain.Build(t, o.dir, t.TempDir())
	stageChange(t, dir, env)
	for _, m := range conformanceModes {
		reference[m.name], _ = shapeVerdict(t, dir, env, m.args(o, msg))
		t.Logf("%s on a plain clone: %s", m.name, reference[m.name])
		if strings.HasPrefix(reference[m.name], "exit 2") {
			t.Fatalf("%s on a plain clone could not check: %s", m.name, reference[m.name])
		}
	}
	for _, s := range gittest.Shapes() {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			dir, env := s.Build(t, o.dir, t.TempDir())
			if !s.Bare {
				stageChange(t, dir, env)
			}
			for _, m := range conformanceModes {
				if m.staged && s.Bare {
					continue
				}
				chosen := s.Reader
				if m.commitsOnly && s.ForIndex {
					chosen = gitdiff.ReaderFast
				}
				readers := []string{""}
				if chosen == gitdiff.ReaderFast {
					readers = append(readers, gitdiff.ReaderGit)
				}
				for _, asked := range readers {
					vars := map[string]string{"SMALL_HOOK_READER": asked}
					for k, v := range env {
						vars[k] = v
					}
					got, reader := shapeVerdict(t, dir, vars, m.args(o, msg))
					want := chosen
					if asked != "" {
						want = asked
					}
					if got != reference[m.name] || reader != want {
						t.Errorf("%s, reader %s (want %s):\n%s\nwant, as on a plain clone:\n%s", m.name, reader, want, got, reference[m.name])
					}
				}
			}
		})
	}
}

// TestPreReceiveReadsTheQuarantine runs small-hook from a pre-receive hook,
// where the pushed objects wait in git's quarantine directory
// (GIT_OBJECT_DIRECTORY, with the repository's own objects as
// GIT_ALTERNATE_OBJECT_DIRECTORIES): kept as a pack when the push holds
// more objects than receive.unpackLimit, as loose objects otherwise. Either
// way the hook must see the pushed commits: accept the clean push of the
// sources (a pack of more than 100 objects) and refuse the agent's edit of
// the intent, as a check of the same range in a plain clone does.
func TestPreReceiveReadsTheQuarantine(t *testing.T) {
	t.Parallel()
	o := newOrigin(t)
	_, env := withBinary(t)
	for _, limit := range []string{"100", "100000"} {
		t.Run("receive.unpackLimit="+limit, func(t *testing.T) {
			parent := repoAt(t, t.TempDir())
			server := filepath.Join(parent.Dir, "server.git")
			parent.Git("init", "-q", "--bare", server)
			s := repoAt(t, server)
			s.Git("config", "receive.unpackLimit", limit)
			origin := repoAt(t, o.dir)
			origin.Git("push", "-q", server, o.base+"~1:refs/heads/main")
			hook := filepath.Join(server, "hooks", "pre-receive")
			writeFileMode(t, hook, "#!/bin/sh\nstatus=0\nwhile read old new ref; do\n\tsmall-hook check --base \"$old\" --head \"$new\" || status=1\ndone\nexit $status\n")
			if err := os.Chmod(hook, 0o755); err != nil {
				t.Fatal(err)
			}
			if out, ok := runIn(t, o.dir, env, "git", "push", server, o.clean+":refs/heads/main"); !ok {
				t.Fatalf("the clean push was refused:\n%s", out)
			}
			if got := s.Git("rev-parse", "main"); got != o.clean {
				t.Fatalf("the server's main is %s, want %s", got, o.clean)
			}
			out, ok := runIn(t, o.dir, env, "git", "push", server, o.agent+":refs/heads/main")
			if ok || !strings.Contains(out, "small/ownership") {
				t.Fatalf("the agent's edit of the intent went through the pre-receive hook:\n%s", out)
			}
		})
	}
}

// TestSHA256RepositoriesSayWhy: every mode refuses a SHA-256 repository
// with the reason, whichever reader the probe picks.
func TestSHA256RepositoriesSayWhy(t *testing.T) {
	t.Parallel()
	r := repoAt(t, t.TempDir())
	r.Git("init", "-q", "-b", "main", "--object-format=sha256")
	r.copyDir(fixtureInit, ".small")
	r.Commit("small init")
	for _, asked := range []string{"", gitdiff.ReaderGit} {
		for _, m := range conformanceModes {
			code, _, errOut := r.check(map[string]string{"SMALL_HOOK_READER": asked}, m.args(&origin{base: "HEAD", agent: "HEAD", rewritten: "HEAD"}, filepath.Join(r.Dir, ".git", "COMMIT_EDITMSG"))...)
			if code != exitFailure || !strings.Contains(errOut, "sha256 ids") || !strings.Contains(errOut, "SHA-1 repositories only") {
				t.Errorf("%s, reader %q: exit %d, %q", m.name, asked, code, errOut)
			}
		}
	}
}

// TestReftableRepositories: where git can make a reftable repository
// (git 2.45 and later), a range check of one gives a plain repository's
// verdict, read by git (the fast reader reads only the files backend of
// refs). Where it cannot, no repository holds reftable refs that this git
// could read: a repository that claims them is git's error, and the
// check's.
func TestReftableRepositories(t *testing.T) {
	t.Parallel()
	o := newOrigin(t)
	parent := repoAt(t, t.TempDir())
	dst := filepath.Join(parent.Dir, "reftable")
	if out, ok := runIn(t, parent.Dir, cleanEnv(), "git", "clone", "-q", "--ref-format=reftable", o.dir, dst); !ok {
		if !strings.Contains(out, "ref-format") {
			t.Fatalf("git refuses a reftable clone for another reason than not knowing the format:\n%s", out)
		}
		parent.Git("clone", "-q", o.dir, dst)
		c := repoAt(t, dst)
		c.Git("config", "core.repositoryFormatVersion", "1")
		c.Git("config", "extensions.refStorage", "reftable")
		code, _, errOut := c.check(nil, "check", "--base", o.base)
		if code != exitFailure || !strings.Contains(errOut, "refstorage") {
			t.Fatalf("a repository claiming reftable refs on a git without them: exit %d, %q", code, errOut)
		}
		return
	}
	plain := filepath.Join(parent.Dir, "plain")
	parent.Git("clone", "-q", o.dir, plain)
	args := []string{"check", "--base", o.base, "--head", "main"}
	want, _ := shapeVerdict(t, plain, nil, args)
	if got, reader := shapeVerdict(t, dst, nil, args); got != want || reader != gitdiff.ReaderGit {
		t.Errorf("reftable, reader %s:\n%s\nwant, as on a plain clone:\n%s", reader, got, want)
	}
}
