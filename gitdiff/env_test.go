package gitdiff

import (
	"path/filepath"
	"testing"
)

// The process environment is not the hook's: a test or a tool running
// inside another repository's hook sees that repository's GIT_* variables.
// Only the variables handed to Open count.
func TestEnvironmentComesOnlyFromOptions(t *testing.T) {
	outer := newRepo(t)
	outer.Write(".small/constraints.small.yml", "outer")
	outer.Commit("outer")
	r := newRepo(t)
	r.Write(".small/constraints.small.yml", "a1")
	r.Commit("one")
	r.Write(".small/constraints.small.yml", "a2")
	r.Git("add", "-A")

	t.Setenv("GIT_DIR", filepath.Join(outer.Dir, ".git"))
	t.Setenv("GIT_WORK_TREE", outer.Dir)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(t.TempDir(), "missing-index"))
	t.Setenv("GIT_AUTHOR_NAME", "Outer Author")
	t.Setenv("GIT_COMMITTER_NAME", "Outer Committer")
	g, err := Open(r.Dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, err := g.Staged(Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(u.Changes); got != ".small/constraints.small.yml:a1>a2" {
		t.Errorf("the process's GIT_DIR, GIT_WORK_TREE or GIT_INDEX_FILE leaked in: %s", got)
	}
	if a, c := g.Author(), g.Committer(); a.Name == "Outer Author" || c.Name == "Outer Committer" {
		t.Errorf("the process's identity leaked in: author %+v, committer %+v", a, c)
	}

	// The same variables, handed over, are honoured.
	env := map[string]string{"GIT_DIR": filepath.Join(outer.Dir, ".git"), "GIT_WORK_TREE": outer.Dir,
		"GIT_AUTHOR_NAME": "Agent", "GIT_AUTHOR_EMAIL": "agent@example.com",
		"GIT_COMMITTER_NAME": "Bot", "GIT_COMMITTER_EMAIL": "bot@example.com"}
	o := r.openWith(env)
	files, err := o.RevFiles("HEAD", ".small/constraints.small.yml")
	if err != nil {
		t.Fatal(err)
	}
	if b := files[".small/constraints.small.yml"]; b == nil || string(b.Data) != "outer" {
		t.Errorf("GIT_DIR from the options was not honoured: %+v", b)
	}
	if a, c := o.Author(), o.Committer(); a.Name != "Agent" || a.Email != "agent@example.com" || c.Name != "Bot" || c.Email != "bot@example.com" {
		t.Errorf("identities from the options: author %+v, committer %+v", a, c)
	}
}
