package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/small-hook/small-hook/internal/gittest"
)

// gitLogRecorders is the computation the ledger is compared with, made
// independently of small-hook's readers: for each entry of path at HEAD,
// the first commit of `git log --reverse -p -- path` whose patch adds the
// entry's lines, one after the other, timestamps compared as instants
// (see instant). Entries are the items of the list under key (entries,
// provenance) at column 0, cut from HEAD's text.
func gitLogRecorders(t *testing.T, dir, path, key string) []string {
	t.Helper()
	head := gitOut(t, dir, "show", "HEAD:"+path)
	blocks := entryBlocks(head, key)
	var commits []string
	runs := map[string][][]string{}
	var run []string
	flush := func() {
		if len(run) > 0 && len(commits) > 0 {
			c := commits[len(commits)-1]
			runs[c] = append(runs[c], run)
		}
		run = nil
	}
	sc := bufio.NewScanner(strings.NewReader(gitOut(t, dir, "log", "--reverse", "-p", "--no-color", "--no-ext-diff", "--format=commit %H", "--", path)))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "commit "):
			flush()
			commits = append(commits, strings.TrimPrefix(line, "commit "))
		case strings.HasPrefix(line, "+++"):
		case strings.HasPrefix(line, "+"):
			run = append(run, instant(line[1:]))
		default:
			flush()
		}
	}
	flush()
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(blocks))
	for i, b := range blocks {
		for j := range b {
			b[j] = instant(b[j])
		}
		for _, c := range commits {
			if slices.ContainsFunc(runs[c], func(r []string) bool { return holds(r, b) }) {
				out[i] = c
				break
			}
		}
	}
	return out
}

// timestampLine is a line that holds an entry's timestamp.
var timestampLine = regexp.MustCompile(`^(\s*(?:- )?timestamp: )["']?([^"']+)["']?\s*$`)

// instant writes the timestamp of a timestamp line as the instant it
// stands for, to the microsecond, and leaves other lines as they are:
// `small progress migrate` rewrites old timestamps as the same instant in
// another spelling, and spreads entries that share an instant by a
// nanosecond each; neither is a new entry.
func instant(line string) string {
	m := timestampLine.FindStringSubmatch(line)
	if m == nil {
		return line
	}
	t, err := time.Parse(time.RFC3339Nano, m[2])
	if err != nil {
		return line
	}
	return m[1] + t.UTC().Truncate(time.Microsecond).Format(time.RFC3339Nano)
}

// holds reports whether run holds block as consecutive lines.
func holds(run, block []string) bool {
	for i := 0; i+len(block) <= len(run); i++ {
		if slices.Equal(run[i:i+len(block)], block) {
			return true
		}
	}
	return false
}

// entryBlocks cuts the items of the block sequence under key out of a
// file's text: each item from its "- " line to the line before the next
// item, the end of the sequence or a frontmatter fence, without the blank
// lines that end it.
func entryBlocks(text, key string) (blocks [][]string) {
	lines := strings.Split(text, "\n")
	start := slices.Index(lines, key+":")
	if start < 0 {
		return nil
	}
	col := -1
	defer func() {
		for i, b := range blocks {
			for len(b) > 1 && strings.TrimSpace(b[len(b)-1]) == "" {
				b = b[:len(b)-1]
			}
			blocks[i] = b
		}
	}()
	for _, l := range lines[start+1:] {
		trimmed := strings.TrimLeft(l, " ")
		indent := len(l) - len(trimmed)
		if col < 0 && strings.HasPrefix(trimmed, "- ") {
			col = indent
		}
		switch {
		case l == "---" || trimmed != "" && indent < col || col < 0:
			return blocks
		case indent == col && strings.HasPrefix(trimmed, "- "):
			blocks = append(blocks, []string{l})
		case len(blocks) > 0:
			blocks[len(blocks)-1] = append(blocks[len(blocks)-1], l)
		}
	}
	return blocks
}

func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := gittest.Run(dir, gittest.Env(), nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// compareWithGitLog runs small-hook log in dir and checks that every entry
// of every ledger file is attributed to the commit gitLogRecorders finds.
// It returns the number of entries compared.
func compareWithGitLog(t *testing.T, dir string) int {
	t.Helper()
	r := repoAt(t, dir)
	code, l, errOut := r.log()
	if code != exitOK {
		t.Fatalf("small-hook log: exit %d\n%s", code, errOut)
	}
	n := 0
	for _, f := range l.Files {
		key := "entries"
		if f.Kind == "provenance" {
			key = "provenance"
		}
		want := gitLogRecorders(t, dir, f.Path, key)
		if len(want) != len(f.Entries) {
			t.Errorf("%s: the ledger has %d entries, the text %d", f.Path, len(f.Entries), len(want))
			continue
		}
		for i, e := range f.Entries {
			if e.Recorded.Commit != want[i] {
				t.Errorf("%s entry %d: the ledger says %s, git log -p says %s", f.Path, i+1, e.Recorded.Commit, want[i])
			}
			n++
		}
	}
	return n
}

// TestLogAgreesWithGitLog compares the ledger with gitLogRecorders on a
// history built here with git: appends, a workspace added with entries, a
// branch merged with both sides' entries interleaved, a nested workspace
// the merge takes from one side, an artifact that awp-style writes
// rewrite around each appended entry, and the timestamp rewrite of
// `small progress migrate` (the entries keep the commit that recorded
// them). With SMALL_REF_REPO and AWP_REF_REPO naming clones of the
// reference SMALL repository and of the AWP repository, it compares them
// too (their histories are not part of this repository).
func TestLogAgreesWithGitLog(t *testing.T) {
	const hour, minute = time.Hour, time.Minute
	r := newTestRepo(t)
	r.Write("README.md", "demo\n")
	r.CommitAt("start", day0)
	r.Write(progressPath, progressHeader+ledgerEntry("meta/init", day0.Add(hour))+ledgerEntry("task-1", day0.Add(2*hour)))
	r.CommitAt("workspace with its first entries", day0.Add(3*hour))
	for i := 4; i < 9; i++ {
		r.appendTo(progressPath, ledgerEntry(fmt.Sprintf("task-%d", i), day0.Add(time.Duration(i)*hour)))
		r.CommitAt("progress", day0.Add(time.Duration(i)*hour+minute))
	}
	fork := r.Git("rev-parse", "HEAD")
	base := r.Read(progressPath)
	mainA, mainB := ledgerEntry("main-a", day0.Add(10*hour)), ledgerEntry("main-b", day0.Add(12*hour))
	sideA, sideB := ledgerEntry("side-a", day0.Add(11*hour)), ledgerEntry("side-b", day0.Add(13*hour))
	r.appendTo(progressPath, mainA)
	r.CommitAt("main a", day0.Add(10*hour+minute))
	r.appendTo(progressPath, mainB)
	r.CommitAt("main b", day0.Add(12*hour+minute))
	r.Git("checkout", "-q", "-b", "side", fork)
	r.appendTo(progressPath, sideA)
	r.CommitAt("side a", day0.Add(11*hour+minute))
	r.appendTo(progressPath, sideB)
	r.CommitAt("side b", day0.Add(13*hour+minute))
	r.Write("examples/demo/.small/progress.small.yml", progressHeader+ledgerEntry("demo-1", day0.Add(13*hour)))
	r.CommitAt("nested workspace", day0.Add(13*hour+2*minute))
	r.Git("checkout", "-q", "main")
	if out, ok := runIn(t, r.Dir, cleanEnv(), "git", "merge", "-q", "--no-edit", "side"); ok {
		t.Fatalf("the merge did not conflict: %s", out)
	}
	r.Write(progressPath, base+mainA+sideA+mainB+sideB)
	r.CommitAt("merge side, both sides' entries in time order", day0.Add(14*hour))
	agent := "did:key:z6MkTestAgentOne"
	entries := []string{provenanceEntry(agent, "created", day0.Add(15*hour))}
	r.Write("artifacts/notes.md", artifact("notes", 1, entries...))
	r.CommitAt("artifact", day0.Add(15*hour+minute))
	for i, action := range []string{"updated", "updated", "merged"} {
		entries = append(entries, provenanceEntry(agent, action, day0.Add(time.Duration(16+i)*hour)))
		r.Write("artifacts/notes.md", artifact("notes", 2+i, entries...))
		r.CommitAt("artifact "+action, day0.Add(time.Duration(16+i)*hour+minute))
	}
	legacy := "examples/legacy/.small/progress.small.yml"
	r.Write(legacy, progressHeader+"    - evidence: old\n      task_id: old-1\n      timestamp: \"2026-03-01T09:30:00Z\"\n    - evidence: old\n      task_id: old-2\n      timestamp: \"2026-03-01T09:30:00Z\"\n")
	r.CommitAt("a workspace from before migrate", day0.Add(19*hour))
	r.Write(legacy, strings.Replace(strings.Replace(r.Read(legacy), "09:30:00Z", "09:30:00.000000000Z", 1), "09:30:00Z", "09:30:00.000000001Z", 1))
	r.CommitAt("small progress migrate", day0.Add(19*hour+minute))
	r.appendTo(progressPath, ledgerEntry("after-merge", day0.Add(20*hour)))
	r.CommitAt("after the merge", day0.Add(20*hour+minute))

	if n := compareWithGitLog(t, r.Dir); n != 19 {
		t.Errorf("compared %d entries, want 19", n)
	}
	for _, env := range []string{"SMALL_REF_REPO", "AWP_REF_REPO"} {
		src := os.Getenv(env)
		if src == "" {
			continue
		}
		t.Run(env, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "clone")
			gittest.At(t, filepath.Dir(dir)).Git("clone", "-q", src, dir)
			t.Logf("%s: %d entries agree with git log -p", src, compareWithGitLog(t, dir))
		})
	}
}
