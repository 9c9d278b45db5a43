package gitdiff

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/workspace"
)

// workTree is a state after a write, given as its files (a test's
// stand-in for the work tree with the write made).
type workTree map[string]string

func (w workTree) List(dir string) ([]string, error) {
	var out []string
	for p := range w {
		if strings.HasPrefix(p, dir) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}

func (w workTree) Read(path string) (*changes.Blob, error) {
	data, ok := w[path]
	if !ok {
		return nil, nil
	}
	return &changes.Blob{Hash: plumbing.ComputeHash(plumbing.BlobObject, []byte(data)).String(), Kind: changes.KindFile, Data: []byte(data)}, nil
}

const artifact = "---\ntype: knowledge-artifact\nsmp: '1.0'\n---\nbody\n"

// TestProposedWriteIsJudgedAgainstHEAD checks what the unit of a proposed
// write holds: HEAD's version and the written one, when a declaration in
// HEAD or in the state after governs the path (the write's own included).
func TestProposedWriteIsJudgedAgainstHEAD(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/progress.small.yml", "a")
	r.Write("docs/artifacts/readme.md", "# not an artifact\n")
	r.Write("kb/artifacts/declared.md", artifact)
	r.Write("src/main.go", "package main")
	r.Commit("one")
	r.Write(".small/progress.small.yml", "a, then staged")
	r.Git("add", "-A")

	for _, tc := range []struct {
		name, path, data string
		extra            workTree
		scope            Scope
		want             string
	}{
		{name: "an edit of HEAD's progress", path: ".small/progress.small.yml", data: "a b", want: ".small/progress.small.yml:a>a b"},
		{name: "an unchanged file", path: ".small/progress.small.yml", data: "a"},
		{name: "a Markdown file nothing declares", path: "docs/artifacts/readme.md", data: "# changed\n"},
		{name: "a write that declares an artifact", path: "docs/artifacts/new.md", data: artifact, want: "docs/artifacts/new.md:->" + strings.TrimSpace(artifact)},
		{name: "a write that strips a declared artifact", path: "kb/artifacts/declared.md", data: "plain\n", want: "kb/artifacts/declared.md:" + strings.TrimSpace(artifact) + ">plain"},
		{name: "an artifact of a workspace the work tree declares", path: "ws/artifacts/a.md", data: "x", extra: workTree{"ws/.awp/workspace.json": "{}"}, want: "ws/artifacts/a.md:->x"},
		{name: "a new canonical file", path: "n/.small/intent.small.yml", data: "i", want: "n/.small/intent.small.yml:->i"},
		{name: "a file out of scope", path: "src/main.go", data: "package x"},
		{name: "a file in scope with secrets.scope: staged", path: "src/main.go", data: "package x", scope: Scope{All: true}, want: "src/main.go:package main>package x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			after := workTree{tc.path: tc.data}
			for p, d := range tc.extra {
				after[p] = d
			}
			u, err := r.open().Proposed(tc.path, after, tc.scope)
			if err != nil {
				t.Fatal(err)
			}
			if got := summary(u.Changes); got != tc.want {
				t.Errorf("changes %q, want %q", got, tc.want)
			}
			if u.Mode != changes.ModeStaged || u.Before == nil || u.Files == nil {
				t.Errorf("the unit is %s, before %v, files %v: want a staged unit against HEAD", u.Mode, u.Before, u.Files)
			}
		})
	}
}

func TestProposedWriteBeforeTheFirstCommit(t *testing.T) {
	r := newRepo(t)
	u, err := r.open().Proposed(".small/intent.small.yml", workTree{".small/intent.small.yml": "i"}, Scope{})
	if err != nil {
		t.Fatal(err)
	}
	if got := summary(u.Changes); got != ".small/intent.small.yml:->i" || u.Before != nil {
		t.Errorf("changes %q, before %v", got, u.Before)
	}
	if !u.Declared.Has(workspace.Declaration{Workspace: workspace.Workspace{Kind: workspace.SMALL}}) {
		t.Errorf("the write's own workspace is not declared: %+v", u.Declared)
	}
}

// TestProposedReadsNoIndex checks that a repository opened without its
// index (what the agent guard does: a write is judged against HEAD) never
// reads it: an index that cannot be read does not stop the write's unit,
// and anything that would need the index says it was not read.
func TestProposedReadsNoIndex(t *testing.T) {
	r := newRepo(t)
	r.Write(".small/progress.small.yml", "a")
	r.Commit("one")
	// An index that cannot be read at all stops Open when it probes it.
	if err := os.Remove(r.Path(".git/index")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(r.Path(".git/index"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(r.Dir, Options{}); err == nil {
		t.Fatal("the unreadable index did not stop Open: the test proves nothing")
	}
	g, err := Open(r.Dir, Options{NoIndex: true})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	u, err := g.Proposed(".small/progress.small.yml", workTree{".small/progress.small.yml": "a b"}, Scope{})
	if err != nil || summary(u.Changes) != ".small/progress.small.yml:a>a b" {
		t.Errorf("Proposed: %q, %v", summary(u.Changes), err)
	}
	if _, err := g.Staged(Scope{}); err == nil || !strings.Contains(err.Error(), "the index was not read") {
		t.Errorf("Staged without the index: %v", err)
	}
}
