package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/testskip"
)

// expect runs a check and wants the exit code and, when rule is set, an
// error finding of that rule with a line, in the JSON report.
func expect(t *testing.T, r *testRepo, code int, rule string, args ...string) {
	t.Helper()
	got, out, errOut := r.check(nil, append([]string{args[0], "--format", "json"}, args[1:]...)...)
	if got != code {
		t.Fatalf("exit %d, want %d\n%s%s", got, code, out, errOut)
	}
	if code == exitFailure && strings.TrimSpace(errOut) == "" {
		t.Fatal("exit 2 without a message")
	}
	if rule == "" {
		return
	}
	for _, f := range decodeReport(t, out).Findings {
		if f.Rule == rule {
			return
		}
	}
	t.Fatalf("no %s finding\n%s", rule, out)
}

func TestHostileContent(t *testing.T) {
	t.Parallel()
	bomb := "small_version: \"1.0.0\"\nowner: agent\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		bomb += n + ": &" + n + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
		prev = n
	}
	progress := func(r *testRepo) string { return r.Read(progressPath) }
	cases := []struct {
		name    string
		path    string
		content func(r *testRepo) string
		code    int
		rule    string
	}{
		{"alias bomb", ".small/plan.small.yml", func(*testRepo) string { return bomb }, exitFindings, "small/parse"},
		{"deep nesting", ".small/plan.small.yml", func(*testRepo) string {
			return "tasks: " + strings.Repeat("[", 300) + strings.Repeat("]", 300) + "\n"
		}, exitFindings, "small/parse"},
		{"NUL byte", progressPath, func(r *testRepo) string { return progress(r) + "\x00\x01\x02" }, exitFindings, "small/parse"},
		{"invalid UTF-8", ".small/intent.small.yml", func(*testRepo) string { return "intent: \xc3\x28\n" }, exitFindings, "small/parse"},
		{"UTF-8 BOM", progressPath, func(r *testRepo) string { return "\xef\xbb\xbf" + progress(r) + appendedEntry }, exitOK, ""},
		{"CRLF", progressPath, func(r *testRepo) string { return strings.ReplaceAll(progress(r)+appendedEntry, "\n", "\r\n") }, exitOK, ""},
		{"lone CR", ".small/plan.small.yml", func(*testRepo) string {
			return "small_version: \"1.0.0\"\rowner: agent\rtasks:\r  - id: t\r    title: T\r"
		}, exitOK, ""},
		{"merge conflict markers", progressPath, func(r *testRepo) string {
			return progress(r) + "<<<<<<< HEAD\n" + appendedEntry + "=======\n" + appendedEntry + ">>>>>>> branch\n"
		}, exitFindings, "small/parse"},
		{"empty file", ".small/plan.small.yml", func(*testRepo) string { return "" }, exitFindings, "small/parse"},
		{"only a comment", ".small/plan.small.yml", func(*testRepo) string { return "# nothing here\n" }, exitFindings, "small/parse"},
		{"duplicate keys", ".small/plan.small.yml", func(*testRepo) string {
			return "small_version: \"1.0.0\"\nowner: agent\nowner: agent\ntasks: []\n"
		}, exitFindings, "small/parse"},
		{"anchor reused across entries", progressPath, func(r *testRepo) string {
			return progress(r) + strings.Replace(appendedEntry, "evidence: go vet ./... is clean", "evidence: &ev go vet ./... is clean", 1) +
				strings.Replace(strings.Replace(appendedEntry, "evidence: go vet ./... is clean", "evidence: *ev", 1), "10:20:00", "10:21:00", 1)
		}, exitOK, ""},
		{"governed path that is a directory", ".small/progress.small.yml.d/entry", func(*testRepo) string { return "x\n" }, exitFindings, "small/layout"},
		{"artifact of an AWP workspace that is binary", "artifacts/blob.md", func(r *testRepo) string {
			r.Write(".awp/workspace.json", "{}")
			return "---\n\x00\x01\n---\n"
		}, exitFindings, "smp/parse"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := workspaceRepo(t)
			r.Write(tc.path, tc.content(r))
			r.Git("add", "-A")
			expect(t, r, tc.code, tc.rule, "check")
			expect(t, r, tc.code, tc.rule, "check", "--all")
		})
	}
}

func TestSymlinkAndSubmoduleAreReported(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	r.Remove(".small/plan.small.yml")
	if err := os.Symlink("/etc/passwd", filepath.Join(r.Dir, ".small", "plan.small.yml")); err != nil {
		testskip.Skip(t, "the file system has no symbolic links: %v", err)
	}
	r.Git("add", "-A")
	expect(t, r, exitFindings, "small/parse", "check")

	s := workspaceRepo(t)
	sub := newTestRepo(t)
	sub.Commit("sub")
	s.Git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.Dir, ".small/vendor")
	expect(t, s, exitFindings, "small/layout", "check")
}

func TestHugeProgressFile(t *testing.T) {
	if testing.Short() {
		testskip.Skip(t, "-short: the test writes a 50 MB file")
	}
	t.Parallel()
	r := workspaceRepo(t)
	var b strings.Builder
	b.WriteString(r.Read(progressPath))
	for i := 0; b.Len() < 50<<20; i++ {
		fmt.Fprintf(&b, "    - evidence: historical run passed with a long note to fill the file up quickly\n      task_id: task-1\n      timestamp: \"2026-11-22T11:00:00.%09dZ\"\n", i)
	}
	r.Write(progressPath, b.String())
	r.Git("add", "-A")
	r.Git("commit", "-q", "--no-verify", "-m", "50 MB of progress")
	r.Write(progressPath, b.String()+strings.Replace(appendedEntry, "2026-11-22T10:20:00", "2026-11-23T10:20:00", 1))
	r.Git("add", "-A")
	expect(t, r, exitOK, "", "check")
	r.Write(progressPath, strings.Replace(b.String(), "task_id: task-2", "task_id: task-9", 1))
	r.Git("add", "-A")
	expect(t, r, exitFindings, "small/parse", "check")
}

func TestUnusualRepositories(t *testing.T) {
	t.Run("detached HEAD", func(t *testing.T) {
		t.Parallel()
		r := workspaceRepo(t)
		r.Git("checkout", "-q", "--detach")
		r.Write(progressPath, r.Read(progressPath)+appendedEntry)
		r.Git("add", "-A")
		expect(t, r, exitOK, "", "check")
	})
	t.Run("GIT_DIR and GIT_WORK_TREE", func(t *testing.T) {
		r := workspaceRepo(t)
		rewriteProgress(r)
		r.Git("add", "-A")
		other := repoAt(t, t.TempDir())
		vars := map[string]string{"GIT_DIR": filepath.Join(r.Dir, ".git"), "GIT_WORK_TREE": r.Dir}
		code, out, errOut := other.check(vars, "check", "--format", "json")
		if code != exitFindings || !contains(rulesOf(decodeReport(t, out)), "small/append-only") {
			t.Fatalf("GIT_DIR and GIT_WORK_TREE: exit %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("bare repository in range mode", func(t *testing.T) {
		t.Parallel()
		r := workspaceRepo(t)
		base := r.Git("rev-parse", "HEAD")
		rewriteProgress(r)
		r.Commit("rewrite")
		bare := filepath.Join(t.TempDir(), "bare.git")
		r.Git("clone", "-q", "--bare", r.Dir, bare)
		b := repoAt(t, bare)
		expect(t, b, exitFindings, "small/append-only", "check", "--base", base)
		expect(t, b, exitFailure, "", "check")
	})
	t.Run("shallow clone", func(t *testing.T) {
		t.Parallel()
		r := workspaceRepo(t)
		for i := 0; i < 3; i++ {
			r.Write("f", strconv.Itoa(i))
			r.Commit("c")
		}
		clone := filepath.Join(t.TempDir(), "c")
		r.Git("clone", "-q", "--depth", "1", "file://"+r.Dir, clone)
		c := repoAt(t, clone)
		if got, _, _ := c.check(nil, "check", "--base", "HEAD~3"); got != exitFailure {
			t.Fatalf("exit %d", got)
		}
		first := r.Git("rev-list", "--max-parents=0", "HEAD")
		got, _, errOut := c.check(nil, "check", "--base", first)
		if got != exitFailure || !strings.Contains(errOut, "fetch-depth: 0") {
			t.Fatalf("a base beyond the shallow boundary: exit %d, %q", got, errOut)
		}
	})
	t.Run("split index", func(t *testing.T) {
		t.Parallel()
		r := workspaceRepo(t)
		r.Git("update-index", "--split-index")
		rewriteProgress(r)
		r.Git("add", "-A")
		expect(t, r, exitFindings, "small/append-only", "check")
	})
	t.Run("sparse checkout", func(t *testing.T) {
		t.Parallel()
		r := workspaceRepo(t)
		r.Write("docs/a.md", "a\n")
		r.Commit("docs")
		r.Git("sparse-checkout", "set", ".small")
		r.Write(progressPath, r.Read(progressPath)+appendedEntry)
		r.Git("add", "-A")
		expect(t, r, exitOK, "", "check")
	})
	t.Run("SHA-256 repository", func(t *testing.T) {
		t.Parallel()
		r := repoAt(t, t.TempDir())
		r.Git("init", "-q", "--object-format=sha256")
		expect(t, r, exitFailure, "", "check")
	})
	t.Run("index version 4", func(t *testing.T) {
		t.Parallel()
		r := workspaceRepo(t)
		r.Git("update-index", "--index-version", "4")
		rewriteProgress(r)
		r.Git("add", "-A")
		expect(t, r, exitFindings, "small/append-only", "check")
	})
	t.Run("rename of a governed file", func(t *testing.T) {
		t.Parallel()
		r := workspaceRepo(t)
		r.Git("mv", progressPath, ".small/progress.old.yml")
		expect(t, r, exitFindings, "small/append-only", "check")
	})
}

// treeHash hashes every file under dir, .git included.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00", path, info.Mode(), info.ModTime())
		if !d.Type().IsRegular() {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(h, f)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestChecksNeverWriteToTheRepository runs every mode on a repository with
// findings in the index and in history: each run must get as far as
// reporting them (exit 1, not 2), and the repository must hash the same.
func TestChecksNeverWriteToTheRepository(t *testing.T) {
	t.Parallel()
	r := secretRepo(t)
	base := r.Git("rev-list", "--max-parents=0", "HEAD")
	before := treeHash(t, r.Dir)
	tmp := t.TempDir()
	msg := filepath.Join(tmp, "COMMIT_EDITMSG")
	writeMessage(t, msg, "Record progress\n")
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"check"}, exitFindings},
		{[]string{"check", "--all"}, exitFindings},
		{[]string{"check", "--all", "--rev", "HEAD"}, exitFindings},
		{[]string{"check", "--base", base}, exitFindings},
		{[]string{"check", "--commit-msg", msg}, exitFindings},
		{[]string{"check", "--format", "sarif", "--output", "json=" + filepath.Join(tmp, "out.json")}, exitFindings},
		{[]string{"check", "--ci"}, exitFindings},
		{[]string{"rules"}, exitOK},
	} {
		code, out, errOut := r.check(map[string]string{"SMALL_HOOK_BASE": base}, c.args...)
		if code != c.code {
			t.Errorf("small-hook %v: exit %d, want %d\n%s%s", c.args, code, c.code, out, errOut)
		}
		if after := treeHash(t, r.Dir); after != before {
			t.Fatalf("small-hook %v changed the repository", c.args)
		}
	}
}

func TestInternalErrorsNeverPass(t *testing.T) {
	t.Parallel()
	t.Run("corrupt index", func(t *testing.T) {
		t.Parallel()
		r := workspaceRepo(t)
		index := r.Read(".git/index")
		r.Write(".git/index", index[:len(index)/2])
		expect(t, r, exitFailure, "", "check")
	})
	t.Run("missing object", func(t *testing.T) {
		t.Parallel()
		r := workspaceRepo(t)
		r.Write(progressPath, r.Read(progressPath)+appendedEntry)
		r.Git("add", "-A")
		blob := r.Git("rev-parse", ":"+progressPath)
		r.Remove(".git/objects/" + blob[:2] + "/" + blob[2:])
		expect(t, r, exitFailure, "", "check")
	})
	t.Run("not a repository", func(t *testing.T) {
		t.Parallel()
		expect(t, repoAt(t, t.TempDir()), exitFailure, "", "check")
	})
}

func TestFirstPushThroughPreCommitChecksTheHistory(t *testing.T) {
	t.Parallel()
	r := workspaceRepo(t)
	r.Write(progressPath, r.Read(progressPath)+appendedEntry)
	r.Commit("append")
	vars := map[string]string{"PRE_COMMIT_REMOTE_NAME": "origin", "PRE_COMMIT_LOCAL_BRANCH": "refs/heads/main", "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/main"}
	if code, out, errOut := r.check(vars, "check", "--ci"); code != exitOK || !strings.Contains(out, "refs/heads/main (new)") || !strings.Contains(out, "2 commits") {
		t.Fatalf("a clean first push: exit %d\n%s%s", code, out, errOut)
	}
	rewriteProgress(r)
	r.Commit("rewrite")
	if code, out, _ := r.check(vars, "check", "--ci"); code != exitFindings || !strings.Contains(out, "small/append-only") {
		t.Fatalf("a first push whose history rewrites progress: exit %d\n%s", code, out)
	}
}
