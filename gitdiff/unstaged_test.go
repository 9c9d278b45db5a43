package gitdiff

import (
	"os"
	"slices"
	"testing"

	"github.com/small-hook/small-hook/internal/testskip"
)

// TestUnstagedListsGovernedChanges: Unstaged names the governed files
// whose work tree differs from the index (changed, deleted, new), governed
// by HEAD, the index or the work tree itself, and nothing else; and
// WorkTreeFiles reads them as git add would store them.
func TestUnstagedListsGovernedChanges(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/progress.small.yml", "one")
	r.Write(".small/plan.small.yml", "plan")
	r.Write("templates/t/.awp/workspace.json", "{}")
	r.Write("templates/t/artifacts/n.md", "n1")
	r.Write("artifacts/notes.md", "# notes\n")
	r.Write("src/main.go", "package main")
	r.Commit("one")

	r.Write(".small/progress.small.yml", "two")              // changed
	r.Remove(".small/plan.small.yml")                        // deleted
	r.Write("templates/t/artifacts/m.md", "m1")              // new, in a workspace HEAD declares
	r.Write("tools/.small/intent.small.yml", "intent")       // new, declares its own workspace
	r.Write("docs/artifacts/a.md", "---\nsmp: '1.0'\n---\n") // new, declares itself
	r.Write("artifacts/notes.md", "# notes, edited\n")       // declares nothing
	r.Write("src/main.go", "package main // edited")         // no candidate
	r.Write("templates/t/artifacts/staged.md", "s1")         // staged as it stands
	r.Git("add", "templates/t/artifacts/staged.md")
	got, err := r.open().Unstaged()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".small/plan.small.yml", ".small/progress.small.yml", "docs/artifacts/a.md", "templates/t/artifacts/m.md", "tools/.small/intent.small.yml"}
	if !slices.Equal(got, want) {
		t.Errorf("Unstaged = %q\nwant       %q", got, want)
	}

	if err := os.Symlink("elsewhere", r.Path("link.yml")); err != nil {
		testskip.Skip(t, "the file system has no symbolic links: %v", err)
	}
	files, err := r.open().WorkTreeFiles(".small/progress.small.yml", ".small/plan.small.yml", "link.yml", "src")
	if err != nil {
		t.Fatal(err)
	}
	blob := r.Git("hash-object", ".small/progress.small.yml")
	if p := files[".small/progress.small.yml"]; len(files) != 2 || p == nil || string(p.Data) != "two" || p.Hash != blob || files["link.yml"] == nil || string(files["link.yml"].Data) != "elsewhere" || files["link.yml"].Kind != "symlink" {
		t.Errorf("WorkTreeFiles = %+v (want the hash %s)", files, blob)
	}
}
