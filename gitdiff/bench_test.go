package gitdiff

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/internal/changes"
)

// fastImport builds history with git fast-import; stream writes the
// commands.
func (r *repo) fastImport(stream func(b *bytes.Buffer)) {
	r.T.Helper()
	var b bytes.Buffer
	stream(&b)
	r.GitInput(b.String(), "fast-import", "--quiet")
	r.Git("checkout", "-q", "-f", "main")
}

// largePackedRepo is a packed repository of files source files and a
// .small workspace, with one source file changed and staged.
func largePackedRepo(b *testing.B, files int) *repo {
	r := newRepo(b)
	r.fastImport(func(w *bytes.Buffer) {
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter T <t@example.com> 1700000000 +0000\ndata 5\nfiles\n")
		for i := 0; i < files; i++ {
			content := fmt.Sprintf("package p\n// file %d\n", i)
			fmt.Fprintf(w, "M 100644 inline src/d%03d/f%05d.go\ndata %d\n%s\n", i/100, i, len(content), content)
		}
		fmt.Fprintf(w, "M 100644 inline .small/progress.small.yml\ndata 12\nentries: []\n\n")
	})
	r.Git("gc", "-q")
	r.Write("src/d000/f00000.go", "changed\n")
	r.Git("add", "src")
	return r
}

func BenchmarkStagedNoGovernedChange(b *testing.B) {
	r := largePackedRepo(b, 20_000)
	b.ReportAllocs()
	for b.Loop() {
		g, err := Open(r.Dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := g.IndexFiles(".small-hook.yml", ".gitleaks.toml", ".gitleaksignore"); err != nil {
			b.Fatal(err)
		}
		u, err := g.Staged(Scope{})
		if err != nil || len(u.Changes) != 0 {
			b.Fatal(u.Changes, err)
		}
		g.Close()
	}
}

// BenchmarkRangeWalkWithoutCommitGraph walks a ten-commit range on top of
// a long linear history in a fresh clone's state: packed, no
// commit-graph, so every ancestor is read for its topological level.
func BenchmarkRangeWalkWithoutCommitGraph(b *testing.B) {
	const n = 5000
	r := newRepo(b)
	r.fastImport(func(w *bytes.Buffer) {
		for i := 0; i < n; i++ {
			fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 2\nc\n", i+1, 1700000000+i)
			if i > 0 {
				fmt.Fprintf(w, "from :%d\n", i)
			}
			fmt.Fprintf(w, "M 100644 inline src/f%d.go\ndata 2\n%d\n\n", i%10, i%10)
		}
	})
	r.Git("repack", "-adq")
	if _, err := os.Stat(filepath.Join(r.Dir, ".git", "objects", "info", "commit-graph")); err == nil {
		b.Fatal("the repository has a commit-graph")
	}
	base := r.Git("rev-parse", "HEAD~10")
	b.ReportAllocs()
	for b.Loop() {
		g, err := Open(r.Dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		units, err := rangeUnits(g, base, "HEAD", Scope{})
		if err != nil || len(units) != 10 {
			b.Fatal(len(units), err)
		}
		g.Close()
	}
}

func BenchmarkReadPackedTrees(b *testing.B) {
	r := largePackedRepo(b, 20_000)
	var trees []string
	for _, line := range strings.Split(r.Git("ls-tree", "-d", "HEAD:src"), "\n") {
		trees = append(trees, strings.Fields(line)[2])
	}
	g, err := Open(r.Dir, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := g.tree(plumbing.NewHash(trees[i%len(trees)])); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRangeOverlapsReadingAndChecking: 100 commits that each append
// to a 400 kB file, checked by a function that reads every byte of the new
// version (a stand-in for the rules): the next commit's unit is built
// while the current one is checked.
func BenchmarkRangeOverlapsReadingAndChecking(b *testing.B) {
	r := newRepo(b)
	var file strings.Builder
	for i := range 8000 {
		fmt.Fprintf(&file, "  - task_id: task-%d\n    status: completed\n", i)
	}
	r.fastImport(func(w *bytes.Buffer) {
		for c := range 101 {
			fmt.Fprintf(&file, "  - task_id: appended-%d\n    status: completed\n", c)
			fmt.Fprintf(w, "commit refs/heads/main\ncommitter T <t@example.com> %d +0000\ndata 2\n%d\n", 1700000000+c, c%10)
			fmt.Fprintf(w, "M 100644 inline .small/progress.small.yml\ndata %d\n%s\n", file.Len(), file.String())
		}
	})
	for b.Loop() {
		g, err := Open(r.Dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		n, err := g.Range("HEAD~100", "HEAD", Scope{}, func(u changes.Unit) error {
			for _, ch := range u.Changes {
				if ch.New != nil && bytes.Count(ch.New.Data, []byte("status: completed")) == 0 {
					return fmt.Errorf("%s: no entries", ch.Path)
				}
			}
			return nil
		})
		if err != nil || n != 100 {
			b.Fatal(n, err)
		}
		g.Close()
	}
}
