package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/small-hook/small-hook/internal/budgettest"
	"github.com/small-hook/small-hook/internal/gittest"
)

// The work budget's scenarios (issue 32): inputs a few hundred kilobytes
// to a few megabytes large that made a stage grow faster than what it
// reads. Each must take under budgetLimit and budgetMemory, and each
// runs beside its peers and beside a larger or a harmless input of the
// same shape.

// budgetLimit and budgetMemory are the bounds every budget scenario must
// stay under on a 2-core machine.
const (
	budgetLimit  = 10 * time.Second
	budgetMemory = 1 << 30
)

// budgetRuns is how many runs a budget scenario takes per command: each
// used to take seconds to minutes, and three show whether it still does.
func (b *bench) budgetRuns() int { return min(b.runs, 3) }

// budgetScenario starts a scenario with the budget's bounds.
func budgetScenario(title string) scenario {
	return scenario{title: title, limit: budgetLimit, maxMemory: budgetMemory, note: "median of 3 runs per command"}
}

// measureBudget measures the subject and its peers, budgetRuns times each.
func (b *bench) measureBudget(s *scenario, cmds ...command) error {
	ms, err := measureTogether(b.budgetRuns(), cmds...)
	if err != nil {
		return err
	}
	s.subject, s.peers = ms[0], ms[1:]
	return nil
}

// aliasedLength is the length of the anchored evidence of scenario 18.
const aliasedLength = 130_000

// aliasedEvidence is scenario 18: a new progress file whose first entry's
// evidence is an anchored 130 kB string that every later entry aliases,
// 250 times (159 kB) and 1,000 times (246 kB): each alias holds the whole
// string where it stands, and the secret scan once scanned it there.
func (b *bench) aliasedEvidence() (scenario, error) {
	s := budgetScenario("18. a new progress file, 130 kB of evidence anchored and aliased 250 times (159 kB)")
	var dirs []string
	for _, n := range []int{250, 1000} {
		dir, err := b.stagedRepo(fmt.Sprintf("aliases-%d", n), func(dir string) error {
			return b.smallWorkspace(dir, budgettest.AliasedProgress(aliasedLength, n, false))
		})
		if err != nil {
			return s, err
		}
		dirs = append(dirs, dir)
	}
	return s, b.measureBudget(&s, append([]command{b.smallHook("small-hook check", dirs[0], "check"),
		b.smallHook("small-hook check, 1,000 aliases (246 kB)", dirs[1], "check"),
		b.smallHook("small-hook check --no-secrets", dirs[0], "check", "--no-secrets")},
		b.gitleaksStaged(dirs[0])...)...)
}

// migrateFormat is how the reference CLI writes a timestamp.
const migrateFormat = "2006-01-02T15:04:05.000000000Z"

// smallWorkspace writes a SMALL workspace at the root of dir: the
// reference CLI's files after `small init`, with the given progress file.
func (b *bench) smallWorkspace(dir string, progress []byte) error {
	small := filepath.Join(dir, ".small")
	if err := copySmall(filepath.Join(b.root, "testdata", "small", "reference-init", ".small"), small, 0); err != nil {
		return err
	}
	return writeFile(filepath.Join(small, "progress.small.yml"), progress)
}

// benchTime is the i-th second after the benchmark's fixed start.
func benchTime(i int) time.Time {
	return time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
}

// deepLevels is how deep scenario 19 nests its files.
const deepLevels = 600

// deepDirectories is scenario 19: a range whose one commit adds 600 files
// 600 artifacts/ directories deep, in an AWP workspace (about 100 kB of
// objects; paths of 6 kB, too long for a work tree), against the same
// tree under a/ directories and gitleaks over the same range.
func (b *bench) deepDirectories() (scenario, error) {
	s := budgetScenario(fmt.Sprintf("19. range mode, %d files %d artifacts/ directories deep", deepLevels, deepLevels))
	var dirs, bases []string
	for _, name := range []string{"artifacts", "a"} {
		dir := filepath.Join(b.work, "deep-"+name)
		base, err := deepRepo(dir, name, deepLevels)
		if err != nil {
			return s, err
		}
		dirs, bases = append(dirs, dir), append(bases, base)
	}
	return s, b.measureBudget(&s, b.smallHook("small-hook check --base", dirs[0], "check", "--base", bases[0]),
		b.smallHook("small-hook check --base, the same tree under a/", dirs[1], "check", "--base", bases[1]),
		command{name: "gitleaks git --log-opts=BASE..HEAD", dir: dirs[0], argv: []string{b.tools.gitleaks, "git", "--no-banner", "--log-level", "error", "--log-opts=" + bases[0] + "..HEAD", "."}})
}

// deepRepo builds, with fast-import (the paths are too long to check
// out), a repository whose first commit declares an AWP workspace at the
// root and whose second adds levels files levels directories named name
// deep; it returns the first commit.
func deepRepo(dir, name string, levels int) (string, error) {
	err := fastImport(dir, func(w io.Writer) {
		inline := func(path, content string) {
			fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n%s\n", path, len(content), content)
		}
		fmt.Fprintf(w, "commit refs/heads/main\nmark :1\ncommitter %s <%s> 1798761600 +0000\ndata 9\nworkspace\n", gittest.Name, gittest.Email)
		inline(".awp/workspace.json", "{\"name\": \"deep\"}\n")
		fmt.Fprintf(w, "commit refs/heads/main\nmark :2\ncommitter %s <%s> 1798761601 +0000\ndata 5\ndeep\nfrom :1\n", gittest.Name, gittest.Email)
		deep := strings.Repeat(name+"/", levels)
		for i := range levels {
			inline(fmt.Sprintf("%sf%04d.md", deep, i), fmt.Sprintf("# Note %d\n\nMeasured %d on the second run.\n", i, i*37))
		}
	})
	if err != nil {
		return "", err
	}
	return gitOutput(dir, nil, "rev-parse", "main~1")
}

// rewrittenEntries is scenario 20: a staged progress file of 8,000
// entries (2.3 MB) replaced by 8,000 different ones, and of 20,000
// (5.6 MB): the append-only rule aligns the old entries with the new.
func (b *bench) rewrittenEntries() (scenario, error) {
	s := budgetScenario("20. a staged rewrite of every entry of an 8,000-entry progress file (2.3 MB)")
	var dirs []string
	for _, n := range []int{8_000, 20_000} {
		dir, err := b.stagedRepo(fmt.Sprintf("rewrite-%d", n), func(dir string) error {
			if err := b.smallWorkspace(dir, entriesFile(n, "historical")); err != nil {
				return err
			}
			if err := git(dir, "add", "-A"); err != nil {
				return err
			}
			if err := git(dir, "commit", "-q", "-m", "progress"); err != nil {
				return err
			}
			return writeFile(filepath.Join(dir, ".small", "progress.small.yml"), entriesFile(n, "rewritten"))
		})
		if err != nil {
			return s, err
		}
		dirs = append(dirs, dir)
	}
	return s, b.measureBudget(&s, append([]command{b.smallHook("small-hook check", dirs[0], "check"),
		b.smallHook("small-hook check, 20,000 entries (5.6 MB)", dirs[1], "check")},
		b.gitleaksStaged(dirs[0])...)...)
}

// entriesFile is a progress file of n entries in the reference CLI's
// layout.
func entriesFile(n int, what string) []byte {
	var out bytes.Buffer
	out.WriteString("small_version: \"1.0.0\"\nowner: agent\nentries:\n")
	for i := range n {
		out.WriteString(progressEntry(i, what))
	}
	return out.Bytes()
}

// ledgerWorkspaces is how many workspaces scenario 21's history holds.
const ledgerWorkspaces = 4_000

// ledgerSnapshots is scenario 21: a history whose first commit adds 4,000
// SMALL workspaces and whose 4,000 next commits each append one entry to
// one of them, against the same commits over 10 workspaces: the ledger
// keeps every progress file's version at every commit.
func (b *bench) ledgerSnapshots() (scenario, error) {
	s := budgetScenario(fmt.Sprintf("21. log over %d commits that each append to one of %d workspaces", ledgerWorkspaces, ledgerWorkspaces))
	var dirs []string
	for _, n := range []int{ledgerWorkspaces, 10} {
		dir := filepath.Join(b.work, fmt.Sprintf("ledger-workspaces-%d", n))
		if err := workspacesRepo(dir, n, ledgerWorkspaces); err != nil {
			return s, err
		}
		dirs = append(dirs, dir)
	}
	return s, b.measureBudget(&s, b.smallHook("small-hook log", dirs[0], "log"),
		b.smallHook("small-hook log, the same commits over 10 workspaces", dirs[1], "log"),
		command{name: "git log -p", dir: dirs[0], argv: []string{"git", "log", "-p"}})
}

// workspacesRepo builds a history whose first commit adds workspaces SMALL
// workspaces of one entry each and whose commits next commits each append
// an entry to one of them, in turn.
func workspacesRepo(dir string, workspaces, commits int) error {
	return fastImport(dir, func(w io.Writer) {
		files := make([][]byte, workspaces)
		fmt.Fprintf(w, "commit refs/heads/main\nmark :1\ncommitter %s <%s> 1798761600 +0000\ndata 10\nworkspaces\n", gittest.Name, gittest.Email)
		for i := range files {
			files[i] = append([]byte("small_version: \"1.0.0\"\nowner: agent\nentries:\n"), progressEntry(0, "first")...)
			fmt.Fprintf(w, "M 100644 inline ws%04d/.small/progress.small.yml\ndata %d\n%s\n", i, len(files[i]), files[i])
		}
		for c := range commits {
			i := c % workspaces
			files[i] = append(files[i], progressEntry(c+1, "ledger")...)
			fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\ncommitter %s <%s> %d +0000\ndata 9\ncommit %d\nfrom :%d\n", c+2, gittest.Name, gittest.Email, 1798761601+c, c%10, c+1)
			fmt.Fprintf(w, "M 100644 inline ws%04d/.small/progress.small.yml\ndata %d\n%s\n", i, len(files[i]), files[i])
		}
	})
}

// evidenceCommits is how long a history scenario 22 builds before its
// entries.
const evidenceCommits = 18_000

// oldEvidence is scenario 22: a history of 18,000 commits, then one that
// records 18,000 entries, each naming one of them as evidence: the
// ledger asks, for each, whether that commit is an ancestor of the one
// that recorded it.
func (b *bench) oldEvidence() (scenario, error) {
	s := budgetScenario(fmt.Sprintf("22. log of %d entries naming %d earlier commits as evidence", evidenceCommits, evidenceCommits))
	dir := filepath.Join(b.work, "evidence")
	if err := evidenceRepo(dir, evidenceCommits); err != nil {
		return s, err
	}
	return s, b.measureBudget(&s, b.smallHook("small-hook log", dir, "log"),
		command{name: "git log -p", dir: dir, argv: []string{"git", "log", "-p"}})
}

// evidenceRepo builds a linear history of n commits that each change a
// source file, then one commit that adds a progress file of n entries,
// entry i naming commit i as its evidence and dated as it.
func evidenceRepo(dir string, n int) error {
	if err := fastImport(dir, func(w io.Writer) {
		for i := range n {
			content := fmt.Sprintf("package p\n\nconst V = %d\n", i)
			fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\ncommitter %s <%s> %d +0000\ndata 9\ncommit %d\n", i+1, gittest.Name, gittest.Email, benchTime(i).Unix(), i%10)
			if i > 0 {
				fmt.Fprintf(w, "from :%d\n", i)
			}
			fmt.Fprintf(w, "M 100644 inline src/f%02d.go\ndata %d\n%s\n", i%50, len(content), content)
		}
	}); err != nil {
		return err
	}
	ids, err := gitOutput(dir, nil, "rev-list", "--reverse", "main")
	if err != nil {
		return err
	}
	var progress bytes.Buffer
	progress.WriteString("small_version: \"1.0.0\"\nowner: agent\nentries:\n")
	for i, id := range strings.Fields(ids) {
		fmt.Fprintf(&progress, "  - task_id: task-%d\n    status: completed\n    evidence:\n      commit_sha: %s\n    timestamp: \"%s\"\n", i, id[:12], benchTime(i).Format(migrateFormat))
	}
	stream := fmt.Sprintf("commit refs/heads/main\ncommitter %s <%s> %d +0000\ndata 9\nevidence\nfrom refs/heads/main^0\nM 100644 inline .small/progress.small.yml\ndata %d\n%s\n",
		gittest.Name, gittest.Email, benchTime(n).Unix(), progress.Len(), progress.String())
	_, err = gitOutput(dir, []byte(stream), "fast-import", "--quiet")
	return err
}

// fastImport creates a repository in dir from the fast-import stream
// write writes (main is not checked out).
func fastImport(dir string, write func(io.Writer)) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := git(dir, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	var stream bytes.Buffer
	w := bufio.NewWriter(&stream)
	write(w)
	if err := w.Flush(); err != nil {
		return err
	}
	_, err := gitOutput(dir, stream.Bytes(), "fast-import", "--quiet")
	return err
}
