package gitdiff

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/workspace"
)

// paths lists the paths of changes, sorted.
func paths(list []changes.Change) string {
	var out []string
	for _, c := range list {
		out = append(out, c.Path)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// gitPaths lists the candidate paths git names in a name-only diff.
func gitPaths(out string) string {
	var list []string
	for _, p := range strings.Split(out, "\n") {
		if p != "" && workspace.Candidate(p) {
			list = append(list, p)
		}
	}
	sort.Strings(list)
	return strings.Join(list, " ")
}

func TestNestedWorkspaces(t *testing.T) {
	r := newRepo(t)
	for i := 0; i < 20; i++ {
		r.Write(fmt.Sprintf("src/pkg%d/file.go", i), "package x")
	}
	r.Write(".small/progress.small.yml", "root")
	r.Write("examples/a/.small/progress.small.yml", "a1")
	r.Write("examples/b/.small/intent.small.yml", "b1")
	r.Write("examples/b/.small/plan.small.yml", "b1")
	r.Write("templates/t/.awp/workspace.json", "{}")
	r.Write("templates/t/artifacts/n.md", "n1")
	base := r.Commit("one")

	r.Write("examples/a/.small/progress.small.yml", "a2")
	r.Git("rm", "-q", "-r", "examples/b/.small")
	r.Write("templates/t/artifacts/m.md", "m1")
	r.Write("src/pkg3/file.go", "package y")
	r.Git("add", "-A")
	u, err := r.open().Staged(Scope{})
	if err != nil {
		t.Fatal(err)
	}
	want := "examples/a/.small/progress.small.yml examples/b/.small/intent.small.yml examples/b/.small/plan.small.yml templates/t/artifacts/m.md"
	if got := paths(u.Changes); got != want {
		t.Errorf("staged: %s\nwant    %s", got, want)
	}
	before, err := u.Before.List("examples/b/.small/")
	if err != nil || strings.Join(before, " ") != "examples/b/.small/intent.small.yml examples/b/.small/plan.small.yml" {
		t.Errorf("the state before lists %v (%v)", before, err)
	}
	r.Commit("two")

	units, err := rangeUnits(r.open(), base, "HEAD", Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if len(units) != 1 || paths(units[0].Changes) != want {
		t.Errorf("range: %d units, %v", len(units), units)
	}
	tree, err := r.open().Tree("HEAD", Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if got := paths(tree.Changes); got != ".small/progress.small.yml examples/a/.small/progress.small.yml templates/t/.awp/workspace.json templates/t/artifacts/m.md templates/t/artifacts/n.md" {
		t.Errorf("tree: %s", got)
	}
}

// TestStagedAgreesWithGit compares the staged change with `git diff
// --cached` after random edits, moves and deletions, with the index's
// cache tree in whatever state git leaves it (valid after a commit,
// partly invalid after adds, rebuilt by read-tree), and with objects loose
// or packed (HEAD's trees read from packs, as deltas).
func TestStagedAgreesWithGit(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	dirs := []string{".small", "a/.small", "a/b/.small", "artifacts", "t/.awp", "t/artifacts", "src", "src/deep/er", "docs"}
	r := newRepo(t)
	// Every directory is declared, so that every candidate path is read.
	for _, marker := range []string{".awp/workspace.json", "t/.awp/workspace.json", ".small/workspace.small.yml", "a/.small/workspace.small.yml", "a/b/.small/workspace.small.yml"} {
		r.Write(marker, "{}")
	}
	for i := 0; i < 30; i++ {
		r.Write(fmt.Sprintf("%s/f%d", dirs[rng.Intn(len(dirs))], i), fmt.Sprint(i))
	}
	r.Commit("start")
	for round := 0; round < 25; round++ {
		switch rng.Intn(4) {
		case 0:
			r.Git("gc", "-q")
		case 1:
			r.Git("repack", "-dq")
		}
		for k := 0; k < 1+rng.Intn(4); k++ {
			path := fmt.Sprintf("%s/f%d", dirs[rng.Intn(len(dirs))], rng.Intn(40))
			switch full := filepath.Join(r.Dir, path); rng.Intn(3) {
			case 0:
				os.RemoveAll(full)
			default:
				r.Write(path, fmt.Sprint(round, k))
			}
		}
		switch rng.Intn(3) {
		case 0:
			r.Git("add", "-A")
		case 1:
			r.Git("add", "-A")
			r.Git("read-tree", "HEAD")
			r.Git("add", "-A", "src", "docs")
		default:
			r.Git("add", "-A", ".")
		}
		u, err := r.open().Staged(Scope{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := paths(u.Changes), gitPaths(r.Git("diff", "--cached", "--no-renames", "--name-only")); got != want {
			t.Fatalf("round %d: staged %q, git %q", round, got, want)
		}
		if rng.Intn(2) == 0 {
			r.Git("commit", "-q", "--allow-empty", "-m", fmt.Sprint(round))
			c := r.open()
			units, err := rangeUnits(c, "HEAD~1", "HEAD", Scope{})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := paths(units[0].Changes), gitPaths(r.Git("diff-tree", "-r", "--no-renames", "--name-only", "--no-commit-id", "HEAD~1", "HEAD")); got != want {
				t.Fatalf("round %d: commit %q, git %q", round, got, want)
			}
		}
	}
}

func TestIntentToAddIsNotStaged(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/progress.small.yml", "p")
	r.Commit("one")
	r.Write(".small/notes.txt", "scratch")
	r.Git("add", "-N", ".small/notes.txt")
	// An empty file staged for real shows the same blob as an
	// intent-to-add entry: only git's flags tell them apart.
	r.Write(".small/empty.txt", "")
	r.Git("add", ".small/empty.txt")
	for _, asked := range []string{"", ReaderGit} {
		u, err := r.openWith(map[string]string{"SMALL_HOOK_READER": asked}).Staged(Scope{})
		if err != nil {
			t.Fatal(err)
		}
		if got := paths(u.Changes); got != ".small/empty.txt" {
			t.Errorf("reader %q: the staged change is %s, want only the empty file", asked, got)
		}
	}
}

// TestSparseIndexDirectoriesAreRead: a sparse index holds a directory
// outside the sparse-checkout cone as one entry, the directory's tree,
// which git commits as it is. The governed files inside it are read from
// that tree: a check of the index sees them, and a staged change outside
// the cone leaves them unchanged.
func TestSparseIndexDirectoriesAreRead(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/progress.small.yml", "p1")
	r.Write("docs/.small/intent.small.yml", "nested")
	r.Write("src/x.go", "x1")
	r.Commit("one")
	r.Git("sparse-checkout", "set", "--sparse-index", "src")
	if out := r.Git("ls-files", "--sparse"); !strings.Contains(out, "docs/\n") {
		t.Fatalf("docs/ is not a sparse directory:\n%s", out)
	}
	r.Write("src/x.go", "x2")
	r.Git("add", "src/x.go")
	g := r.open()
	defer g.Close()
	if name, _ := g.Reader(); name != ReaderGit {
		t.Fatalf("a sparse index is read by %s", name)
	}
	u, err := g.Tree("", Scope{})
	if err != nil || paths(u.Changes) != ".small/progress.small.yml docs/.small/intent.small.yml" {
		t.Errorf("the index holds %s, %v", paths(u.Changes), err)
	}
	s, err := g.Staged(Scope{})
	if err != nil || len(s.Changes) != 0 {
		t.Errorf("the staged change: %s, %v", paths(s.Changes), err)
	}
	if b, err := s.Files.Read("docs/.small/intent.small.yml"); err != nil || b == nil || string(b.Data) != "nested" {
		t.Errorf("the staged nested intent reads %v, %v", b, err)
	}
}

// TestSparseIndexDirectoriesHoldNamedFiles: files named by path (the
// configuration, the pre-commit framework's file names) are found in a
// sparse index's directory entries too.
func TestSparseIndexDirectoriesHoldNamedFiles(t *testing.T) {
	r := newRepo(t)
	r.Write("config/keys/allowed_signers", "keys")
	r.Write("src/x.go", "x1")
	r.Commit("one")
	r.Git("sparse-checkout", "set", "--sparse-index", "src")
	g := r.open()
	defer g.Close()
	files, err := g.IndexFiles("config/keys/allowed_signers", "config/keys/missing", "src/x.go")
	if err != nil || len(files) != 2 || files["config/keys/allowed_signers"] == nil || string(files["config/keys/allowed_signers"].Data) != "keys" {
		t.Errorf("%v, %v", files, err)
	}
}
