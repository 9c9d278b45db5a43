package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestDeclaresArtifactWhatAWPWrites: every artifact the awp CLI wrote
// (testdata/smp, copied from the conformance files) declares itself.
func TestDeclaresArtifactWhatAWPWrites(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "smp", "*.md"))
	if err != nil || len(files) < 5 {
		t.Fatalf("conformance artifacts: %v %v", files, err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !DeclaresArtifact(data) {
			t.Errorf("%s does not declare itself a knowledge artifact", f)
		}
	}
}

func TestDeclaresArtifact(t *testing.T) {
	for text, want := range map[string]bool{
		"---\nsmp: '1.0'\n---\nbody\n":                                true,
		"---\ntitle: x\ntype: knowledge-artifact\n---\n":              true,
		"---\r\ntype: 'knowledge-artifact'\r\n---\r\n":                true,
		"\xef\xbb\xbf---\ntype: \"knowledge-artifact\" # awp\n---\n":  true,
		"---\n\"smp\": 1.0\n---\n":                                    true,
		"---\ntitle: broken: [\nsmp: '1.0'\n":                         true, // never closed: still declares, to be reported
		"---  \nsmp: '1.0'\n---\n":                                    true,
		"# Notes\n\nsmp: '1.0'\n":                                     false, // no frontmatter
		"---\ntitle: Run 12\ntags: [ml]\n---\nsmp: 1\n":               false, // in the body
		"---\ntype: note\n---\n":                                      false,
		"---\nmeta:\n  smp: '1.0'\n  type: knowledge-artifact\n---\n": false, // not at the top level
		"---\n# smp: '1.0'\n---\n":                                    false,
		"---\ntype: knowledge-artifacts\n---\n":                       false,
		"---\nsmpx: 1\n---\n":                                         false,
		"":                                                            false,
		"\n---\nsmp: '1.0'\n---\n":                                    false, // the frontmatter opens on the first line
	} {
		if got := DeclaresArtifact([]byte(text)); got != want {
			t.Errorf("DeclaresArtifact(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestDeclaredBy(t *testing.T) {
	small := func(root string) *Declaration { return &Declaration{Workspace: Workspace{Kind: SMALL, Root: root}} }
	awp := func(root string) *Declaration { return &Declaration{Workspace: Workspace{Kind: AWP, Root: root}} }
	for path, want := range map[string]*Declaration{
		".small/intent.small.yml":             small(""),
		"a/b/.small/workspace.small.yml":      small("a/b/"),
		".SMALL/progress.small.yml":           small(""), // the folding file systems see the workspace
		".small/notes.txt":                    nil,
		".small/ext/intent.small.yml":         nil,
		".small/archive/x/plan.small.yml":     nil,
		"docs/intent.small.yml":               nil,
		".awp/workspace.json":                 awp(""),
		"templates/clawd/.awp/workspace.json": awp("templates/clawd/"),
		".awp/private-key.pem":                nil,
		"artifacts/x.md":                      nil, // an artifact declares itself by its content
	} {
		got, ok := DeclaredBy(path)
		switch {
		case want == nil && ok:
			t.Errorf("DeclaredBy(%q) = %+v, want nothing", path, got)
		case want != nil && (!ok || got != *want):
			t.Errorf("DeclaredBy(%q) = %+v %v, want %+v", path, got, ok, *want)
		}
	}
}

func TestArtifactAt(t *testing.T) {
	for path, want := range map[string]string{
		"artifacts/x.md":          "artifacts/x.md",
		"notes/Artifacts/x.md":    "notes/artifacts/x.md",
		"artifacts/sub/x.md":      "",
		"artifacts/x.md.bak":      "",
		"artifacts/.md":           "",
		"artifacts/run.json":      "",
		"docs/x.md":               "",
		"artifacts/.small/x.md":   "",
		".small/artifacts/a/b.md": "",
	} {
		got, ok := ArtifactAt(path)
		if ok != (want != "") || got.Artifact != want {
			t.Errorf("ArtifactAt(%q) = %+v %v, want %q", path, got, ok, want)
		}
	}
}

func TestNeeds(t *testing.T) {
	got := Needs("ws/artifacts/.small/x/artifacts/n.md")
	want := []Declaration{
		{Workspace: Workspace{Kind: AWP, Root: "ws/artifacts/.small/x/"}},
		{Artifact: "ws/artifacts/.small/x/artifacts/n.md"},
		{Workspace: Workspace{Kind: SMALL, Root: "ws/artifacts/"}},
		{Workspace: Workspace{Kind: AWP, Root: "ws/"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Needs = %+v\nwant    %+v", got, want)
	}
	if got := Needs("src/main.go"); got != nil {
		t.Errorf("a path that is no candidate needs %+v", got)
	}
}
