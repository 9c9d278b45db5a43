package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/small-hook/small-hook/internal/gittest"
)

// referenceHistory is scenario 8: the whole history of the reference SMALL
// repository, whose first commits add a progress file of hundreds of
// entries at once.
func (b *bench) referenceHistory() (scenario, error) {
	s := scenario{title: "8. check --history over the reference SMALL repository",
		limit: 500 * time.Millisecond}
	reference := os.Getenv("SMALL_REF_REPO")
	if reference == "" {
		s.subject = skipped("small-hook check --history", "not available (set SMALL_REF_REPO to a clone or mirror of github.com/justyn-clark/small-protocol)")
		return s, nil
	}
	dir := filepath.Join(b.work, "reference.git")
	if err := os.RemoveAll(dir); err != nil {
		return s, err
	}
	if err := git(b.work, "clone", "-q", "--mirror", reference, dir); err != nil {
		return s, fmt.Errorf("cloning SMALL_REF_REPO: %w", err)
	}
	count, err := gitOutput(dir, nil, "rev-list", "--count", "HEAD")
	if err != nil {
		return s, err
	}
	s.title = fmt.Sprintf("8. check --history over the reference SMALL repository (%s commits)", count)
	if s.largest, err = largestInHistory(dir); err != nil {
		return s, err
	}
	return s, b.compare(&s, b.smallHook("small-hook check --history", dir, "check", "--history"), false,
		append([]command{b.smallHook("small-hook check --history --no-secrets", dir, "check", "--history", "--no-secrets")},
			b.gitleaks("gitleaks git (whole history)", dir, "git", "--no-banner", "--log-level", "error", ".")...)...)
}

// largestInHistory is the size of the largest governed blob reachable
// from HEAD.
func largestInHistory(dir string) (int64, error) {
	objects, err := gitOutput(dir, nil, "rev-list", "--objects", "--missing=allow-any", "HEAD")
	if err != nil {
		return 0, err
	}
	var governedObjects bytes.Buffer
	for _, line := range strings.Split(objects, "\n") {
		if id, path, ok := strings.Cut(line, " "); ok && governed(path) {
			fmt.Fprintln(&governedObjects, id)
		}
	}
	sizes, err := gitOutput(dir, governedObjects.Bytes(), "cat-file", "--batch-check=%(objectsize)")
	if err != nil {
		return 0, err
	}
	var largest int64
	for _, line := range strings.Fields(sizes) {
		if n, err := strconv.ParseInt(line, 10, 64); err == nil {
			largest = max(largest, n)
		}
	}
	return largest, nil
}

// longHistoryCommits is how long a history scenario 9 builds.
const longHistoryCommits = 20_000

// longHistory is scenario 9: a ten-commit range on top of a long linear
// history, in a fresh clone's state (packed, no commit-graph), where the
// walk computes the commits' topological levels itself; and the same
// range with a commit-graph.
func (b *bench) longHistory() (scenario, error) {
	s := scenario{title: fmt.Sprintf("9. ten-commit range on a %d-commit history without a commit-graph", longHistoryCommits)}
	dir := filepath.Join(b.work, "long")
	if err := os.RemoveAll(dir); err != nil {
		return s, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return s, err
	}
	if err := longRepo(dir, b.smallFixture(), longHistoryCommits); err != nil {
		return s, err
	}
	graph := filepath.Join(b.work, "long-graph")
	if err := os.RemoveAll(graph); err != nil {
		return s, err
	}
	if _, err := gitOutput(b.work, nil, "clone", "-q", "--no-local", dir, graph); err != nil {
		return s, err
	}
	if err := git(graph, "commit-graph", "write", "--reachable"); err != nil {
		return s, err
	}
	base, err := gitOutput(dir, nil, "rev-parse", "HEAD~10")
	if err != nil {
		return s, err
	}
	if s.largest, err = largestGoverned(dir); err != nil {
		return s, err
	}
	return s, b.compare(&s, b.smallHook("small-hook check --base HEAD~10", dir, "check", "--base", base), false,
		command{name: "git rev-list HEAD~10..HEAD", dir: dir, argv: []string{"git", "rev-list", base + "..HEAD"}},
		b.smallHook("small-hook check --base HEAD~10, with a commit-graph", graph, "check", "--base", base),
		b.smallHookByGit("small-hook check --base HEAD~10, read by git", dir, "check", "--base", base))
}

// longRepo creates a linear history of n commits: the first adds the
// reference workspace, every commit changes one source file and every
// hundredth appends a progress entry.
func longRepo(dir, small string, n int) error {
	if err := git(dir, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	progress, err := os.ReadFile(filepath.Join(small, "progress.small.yml"))
	if err != nil {
		return err
	}
	var stream bytes.Buffer
	w := bufio.NewWriter(&stream)
	for i := 0; i < n; i++ {
		fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\ncommitter %s <%s> %d +0000\ndata 9\ncommit %d\n", i+1, gittest.Name, gittest.Email, 1700000000+i, i%10)
		if i > 0 {
			fmt.Fprintf(w, "from :%d\n", i)
		}
		if i == 0 {
			if err := inlineDir(w, small, ".small"); err != nil {
				return err
			}
		}
		if i > 0 && i%100 == 0 {
			progress = append(progress, progressEntry(i, "long")...)
			fmt.Fprintf(w, "M 100644 inline .small/progress.small.yml\ndata %d\n%s\n", len(progress), progress)
		}
		content := fmt.Sprintf("package p\n\n// Version %d.\nconst V = %d\n", i, i)
		fmt.Fprintf(w, "M 100644 inline src/f%02d.go\ndata %d\n%s\n", i%50, len(content), content)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if _, err := gitOutput(dir, stream.Bytes(), "fast-import", "--quiet"); err != nil {
		return err
	}
	return git(dir, "checkout", "-q", "-f", "main")
}

// inlineDir writes the files of src into a fast-import stream under dst.
func inlineDir(w *bufio.Writer, src, dst string) error {
	names, err := filepath.Glob(filepath.Join(src, "*"))
	if err != nil {
		return err
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "M 100644 inline %s/%s\ndata %d\n%s\n", dst, filepath.Base(name), len(data), data)
	}
	return nil
}
