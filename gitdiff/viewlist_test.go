package gitdiff

import (
	"strings"
	"testing"

	"github.com/small-hook/small-hook/internal/workspace"
)

// TestStagedListAgreesWithGit lists directories of the staged state where
// git commits some directories as the cache tree's trees (a/, unchanged)
// and others entry by entry (c/, changed): below, at and above a tree
// committed whole, and beside it, List names what the tree git writes from
// the index holds there.
func TestStagedListAgreesWithGit(t *testing.T) {
	r := newRepo(t)
	for _, root := range []string{"a/", "a/b/", "c/", "c/d/"} {
		r.Write(root+".small/intent.small.yml", "i")
		r.Write(root+".small/progress.small.yml", "p")
	}
	r.Write("a/.smallx/f", "x")
	r.Write("a/notes.txt", "n")
	r.Commit("workspaces")
	r.Write("c/.small/progress.small.yml", "p2")
	r.Write("c/.small/plan.small.yml", "q")
	r.Git("add", "c/")
	u, err := r.open().Staged(Scope{All: true})
	if err != nil {
		t.Fatal(err)
	}
	view, ok := u.Files.(*commitView)
	if !ok {
		t.Fatalf("the staged state is a %T, not the view of what git commits", u.Files)
	}
	if _, whole := view.trees["a/"]; !whole {
		t.Fatalf("a/ is not committed as a tree (%v): the test lists no tree", view.trees)
	}
	committed := strings.Split(r.Git("ls-tree", "-r", "--name-only", r.Git("write-tree")), "\n")
	for _, dir := range []string{"", "a/", "a/.small/", "a/b/.small/", "a/b/", "c/", "c/.small/", "c/d/.small/", "e/.small/"} {
		var want []string
		for _, p := range committed {
			if strings.HasPrefix(p, dir) {
				want = append(want, p)
			}
		}
		got, err := u.Files.List(dir)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("List(%q) = %q, git commits %q", dir, got, want)
		}
	}
}

// TestStagedDeclaresEveryWorkspace stages several workspaces at once,
// one of them declared only by a folded spelling of its directory: each is
// governed, and a directory that declares nothing is not.
func TestStagedDeclaresEveryWorkspace(t *testing.T) {
	r := newRepo(t)
	r.Write("README.md", "r")
	r.Commit("base")
	for _, root := range []string{"w1/", "w2/", "w3/"} {
		r.Write(root+".small/intent.small.yml", "i")
	}
	r.Write("w4/.SMALL/intent.small.yml", "i")
	r.Write("none/.small/notes.txt", "n")
	r.Git("add", "-A")
	u, err := r.open().Staged(Scope{})
	if err != nil {
		t.Fatal(err)
	}
	var governed []string
	for _, root := range []string{"w1/", "w2/", "w3/", "w4/", "none/"} {
		if u.Declared.Has(workspace.Declaration{Workspace: workspace.Workspace{Kind: workspace.SMALL, Root: root}}) {
			governed = append(governed, root)
		}
	}
	if got, want := strings.Join(governed, " "), "w1/ w2/ w3/ w4/"; got != want {
		t.Errorf("governed workspaces %q, want %q", got, want)
	}
}
