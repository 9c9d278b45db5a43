package changes

import (
	"fmt"
	"testing"

	"github.com/small-hook/small-hook/internal/workspace"
)

func blob(s string) *Blob {
	return &Blob{Hash: fmt.Sprintf("%x", len(s)), Kind: KindFile, Data: []byte(s)}
}

const (
	artifact = "---\ntype: knowledge-artifact\n---\nbody\n"
	note     = "# note\n"
)

func TestLocate(t *testing.T) {
	awp := workspace.Declaration{Workspace: workspace.Workspace{Kind: workspace.AWP, Root: "ws/"}}
	cases := []struct {
		name     string
		change   Change
		declared []workspace.Declaration
		want     workspace.Place
	}{
		{"a canonical file declares its own workspace", Change{Path: ".small/plan.small.yml", New: blob("x")}, nil,
			workspace.Place{Workspace: workspace.Workspace{Kind: workspace.SMALL}, Area: workspace.Files, Rel: "plan.small.yml", Canonical: ".small/plan.small.yml"}},
		{"another file of an undeclared .small", Change{Path: ".small/notes.txt", New: blob("x")}, nil,
			workspace.Place{Canonical: ".small/notes.txt"}},
		{"a deleted marker still declares its workspace", Change{Path: "ws/.awp/workspace.json", Old: blob("{}")}, nil,
			workspace.Place{Workspace: workspace.Workspace{Kind: workspace.AWP, Root: "ws/"}, Area: workspace.Private, Rel: "workspace.json", Canonical: "ws/.awp/workspace.json"}},
		{"an artifact that declares itself", Change{Path: "d/artifacts/a.md", New: blob(artifact)}, nil,
			workspace.Place{Workspace: workspace.Workspace{Kind: workspace.AWP, Root: "d/"}, Area: workspace.Artifacts, Rel: "a.md", Canonical: "d/artifacts/a.md", Standalone: true}},
		{"a note", Change{Path: "d/artifacts/a.md", New: blob(note)}, nil, workspace.Place{Canonical: "d/artifacts/a.md"}},
		{"a stripped artifact", Change{Path: "d/artifacts/a.md", Old: blob(artifact), New: blob(note)}, nil,
			workspace.Place{Workspace: workspace.Workspace{Kind: workspace.AWP, Root: "d/"}, Area: workspace.Artifacts, Rel: "a.md", Canonical: "d/artifacts/a.md", Standalone: true, Undeclared: true}},
		{"stripped in a merge from one parent", Change{Path: "d/artifacts/a.md", Old: blob(note), New: blob(note + "x"), Merge: &Merge{Parents: []*Blob{blob(note), blob(artifact)}}}, nil,
			workspace.Place{Workspace: workspace.Workspace{Kind: workspace.AWP, Root: "d/"}, Area: workspace.Artifacts, Rel: "a.md", Canonical: "d/artifacts/a.md", Standalone: true, Undeclared: true}},
		{"declared only by the merge base", Change{Path: "d/artifacts/a.md", Old: blob(note), New: blob(note + "x"), Merge: &Merge{Base: blob(artifact), Parents: []*Blob{blob(note), nil}}}, nil,
			workspace.Place{Workspace: workspace.Workspace{Kind: workspace.AWP, Root: "d/"}, Area: workspace.Artifacts, Rel: "a.md", Canonical: "d/artifacts/a.md", Standalone: true}},
		{"a stripped artifact of a workspace is its workspace's", Change{Path: "ws/artifacts/a.md", Old: blob(artifact), New: blob(note)}, []workspace.Declaration{awp},
			workspace.Place{Workspace: workspace.Workspace{Kind: workspace.AWP, Root: "ws/"}, Area: workspace.Artifacts, Rel: "a.md", Canonical: "ws/artifacts/a.md"}},
		{"a link does not declare", Change{Path: "d/artifacts/a.md", New: &Blob{Kind: KindSymlink, Data: []byte(artifact)}}, nil,
			workspace.Place{Canonical: "d/artifacts/a.md"}},
		{"governed by what the reader found", Change{Path: "ws/artifacts/run.json", New: blob("{}")}, []workspace.Declaration{awp},
			workspace.Place{Workspace: workspace.Workspace{Kind: workspace.AWP, Root: "ws/"}, Area: workspace.Artifacts, Rel: "run.json", Canonical: "ws/artifacts/run.json"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u := Unit{Changes: []Change{c.change}}
			for _, x := range c.declared {
				u.Declared.Add(x)
			}
			Locate(&u)
			if got := u.Changes[0].Place; got != c.want {
				t.Errorf("Place = %+v\nwant    %+v", got, c.want)
			}
		})
	}
}

func TestChangedAfterLocateSorts(t *testing.T) {
	u := Unit{Changes: []Change{{Path: "c"}, {Path: "a"}, {Path: "b"}}}
	Locate(&u)
	for _, p := range []string{"a", "b", "c"} {
		if ch := u.Changed(p); ch == nil || ch.Path != p {
			t.Errorf("Changed(%q) = %+v", p, ch)
		}
	}
	for _, p := range []string{"", "0", "bb", "d"} {
		if ch := u.Changed(p); ch != nil {
			t.Errorf("Changed(%q) = %+v, want nil", p, ch)
		}
	}
}
