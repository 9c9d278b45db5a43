package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/small-hook/small-hook/internal/gittest"
)

// ledgerReference is scenario 11: the verified ledger of the reference
// SMALL repository (every entry of its seven progress files attributed
// to the commit that recorded it) against `git log -p` of the same files.
func (b *bench) ledgerReference() (scenario, error) {
	s := scenario{title: "11. log over the reference SMALL repository", limit: time.Second}
	reference := os.Getenv("SMALL_REF_REPO")
	if reference == "" {
		s.subject = skipped("small-hook log", "not available (set SMALL_REF_REPO to a clone or mirror of github.com/justyn-clark/small-protocol)")
		return s, nil
	}
	dir := filepath.Join(b.work, "reference-log.git")
	if err := os.RemoveAll(dir); err != nil {
		return s, err
	}
	if err := git(b.work, "clone", "-q", "--mirror", reference, dir); err != nil {
		return s, fmt.Errorf("cloning SMALL_REF_REPO: %w", err)
	}
	files, err := ledgerFiles(dir)
	if err != nil {
		return s, err
	}
	count, err := gitOutput(dir, nil, "rev-list", "--count", "HEAD")
	if err != nil {
		return s, err
	}
	s.title = fmt.Sprintf("11. log over the reference SMALL repository (%s commits, %d progress files)", count, len(files))
	return s, b.compare(&s, b.smallHook("small-hook log", dir, "log"), false,
		b.smallHook("small-hook log --format json", dir, "log", "--format", "json"),
		gitLogPatches("git log -p of the same files", dir, files))
}

// ledgerFiles lists the progress files and artifacts at HEAD.
func ledgerFiles(dir string) ([]string, error) {
	out, err := gitOutput(dir, nil, "ls-tree", "-r", "--name-only", "HEAD")
	if err != nil {
		return nil, err
	}
	var files []string
	for _, p := range strings.Split(out, "\n") {
		if strings.HasSuffix(p, ".small/progress.small.yml") || strings.Contains(p, "artifacts/") && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
	}
	return files, nil
}

// gitLogPatches is `git log -p` of files: every version of every file
// read and compared with the one before, what the ledger needs at least.
func gitLogPatches(name, dir string, files []string) command {
	return command{name: name, dir: dir, argv: append([]string{"git", "log", "-p", "--"}, files...)}
}

// ledgerCommits are the lengths of the two histories scenario 12 builds.
const ledgerCommits, ledgerCommitsShort = 1_200, 300

// ledgerGrowth is scenario 12: the ledger of a progress file that every
// commit of a long history appends an entry to, on histories four times
// apart in length: the cost follows the history (four times the work), not
// the history times the entries (sixteen times).
func (b *bench) ledgerGrowth() (scenario, error) {
	s := scenario{title: fmt.Sprintf("12. log over %d commits that each append a progress entry", ledgerCommits)}
	long, short := filepath.Join(b.work, "ledger-long"), filepath.Join(b.work, "ledger-short")
	for dir, n := range map[string]int{long: ledgerCommits, short: ledgerCommitsShort} {
		if err := os.RemoveAll(dir); err != nil {
			return s, err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return s, err
		}
		if err := appendingRepo(dir, n); err != nil {
			return s, err
		}
	}
	s.note = fmt.Sprintf("the first two histories are %d times apart in length: a cost that follows the history gives a ratio near %d, one that follows history × entries near %d", ledgerCommits/ledgerCommitsShort, ledgerCommits/ledgerCommitsShort, (ledgerCommits/ledgerCommitsShort)*(ledgerCommits/ledgerCommitsShort))
	return s, b.compare(&s, b.smallHook(fmt.Sprintf("small-hook log (%d commits)", ledgerCommits), long, "log"), false,
		b.smallHook(fmt.Sprintf("small-hook log (%d commits)", ledgerCommitsShort), short, "log"),
		gitLogPatches(fmt.Sprintf("git log -p (%d commits)", ledgerCommits), long, []string{".small/progress.small.yml"}))
}

// appendingRepo creates a linear history of n commits, each appending one
// progress entry (the first adds the workspace with its first entry).
func appendingRepo(dir string, n int) error {
	if err := git(dir, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	progress := []byte("small_version: \"1.0.0\"\nowner: agent\nentries:\n")
	var stream bytes.Buffer
	w := bufio.NewWriter(&stream)
	for i := 0; i < n; i++ {
		progress = append(progress, progressEntry(i, "ledger")...)
		fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\ncommitter %s <%s> %d +0000\ndata 9\ncommit %d\n", i+1, gittest.Name, gittest.Email, 1798761600+i, i%10)
		if i > 0 {
			fmt.Fprintf(w, "from :%d\n", i)
		}
		fmt.Fprintf(w, "M 100644 inline .small/progress.small.yml\ndata %d\n%s\n", len(progress), progress)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if _, err := gitOutput(dir, stream.Bytes(), "fast-import", "--quiet"); err != nil {
		return err
	}
	return git(dir, "checkout", "-q", "-f", "main")
}
