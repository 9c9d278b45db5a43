package workspace

import (
	"strings"
	"testing"
)

func TestLocate(t *testing.T) {
	var declared Declarations
	for _, x := range []Declaration{
		{Workspace: Workspace{Kind: SMALL}},
		{Workspace: Workspace{Kind: SMALL, Root: "examples/demo/"}},
		{Workspace: Workspace{Kind: SMALL, Root: "examples/x/"}},
		{Workspace: Workspace{Kind: SMALL, Root: "artifacts/"}},
		{Workspace: Workspace{Kind: AWP}},
		{Workspace: Workspace{Kind: AWP, Root: "templates/clawd/"}},
		{Artifact: "docs/artifacts/note.md"},
	} {
		declared.Add(x)
	}
	cases := []struct {
		path      string
		kind      Kind
		root, rel string
		area      Area
		folded    bool
		canonical string
		// standalone marks an artifact governed by its own declaration.
		standalone bool
	}{
		{path: ".small/progress.small.yml", kind: SMALL, area: Files, rel: "progress.small.yml"},
		{path: "examples/demo/.small/intent.small.yml", kind: SMALL, root: "examples/demo/", area: Files, rel: "intent.small.yml"},
		{path: ".small/ext/tool/state.json", kind: SMALL, area: Files, rel: "ext/tool/state.json"},
		{path: "artifacts/notes.md", kind: AWP, area: Artifacts, rel: "notes.md"},
		{path: "templates/clawd/artifacts/notes.md", kind: AWP, root: "templates/clawd/", area: Artifacts, rel: "notes.md"},
		{path: ".awp/private-key.pem", kind: AWP, area: Private, rel: "private-key.pem"},
		{path: "templates/clawd/.awp/workspace.json", kind: AWP, root: "templates/clawd/", area: Private, rel: "workspace.json"},
		{path: "build/artifacts/notes.md"},    // no .awp/workspace.json beside it, no declaration of its own
		{path: "build/.small/plan.small.yml"}, // no declared SMALL workspace there
		{path: "build/.awp/private-key.pem"},  // no AWP workspace there
		{path: "src/small/x.go"},              // not the directory name
		{path: ".smaller/x.yml"},              // a longer name
		{path: ".small"},                      // a file, not a directory
		{path: "docs/artifacts/note.md", kind: AWP, root: "docs/", area: Artifacts, rel: "note.md", standalone: true},
		{path: "docs/Artifacts/note.md", kind: AWP, root: "docs/", area: Artifacts, rel: "note.md", standalone: true, folded: true, canonical: "docs/artifacts/note.md"},
		{path: "docs/artifacts/other.md"},     // another file of the same directory declares only itself
		{path: "docs/artifacts/note.md/x.md"}, // not directly in artifacts/
		{path: "Build/Artifacts/run.json"},    // a folded spelling of what would not be governed either
		{path: "artifacts/.small/plan.small.yml", kind: SMALL, root: "artifacts/", area: Files, rel: "plan.small.yml"}, // innermost wins
		{path: ".SMALL/intent.small.yml", kind: SMALL, area: Files, rel: "intent.small.yml", folded: true, canonical: ".small/intent.small.yml"},
		{path: "examples/x/.Small/plan.small.yml", kind: SMALL, root: "examples/x/", area: Files, rel: "plan.small.yml", folded: true, canonical: "examples/x/.small/plan.small.yml"},
		{path: ".small./intent.small.yml", kind: SMALL, area: Files, rel: "intent.small.yml", folded: true, canonical: ".small/intent.small.yml"},
		{path: ".small /intent.small.yml", kind: SMALL, area: Files, rel: "intent.small.yml", folded: true, canonical: ".small/intent.small.yml"},
		{path: "SMALL~1/intent.small.yml", kind: SMALL, area: Files, rel: "intent.small.yml", folded: true, canonical: ".small/intent.small.yml"},
		{path: ".s\u200cmall/intent.small.yml", kind: SMALL, area: Files, rel: "intent.small.yml", folded: true, canonical: ".small/intent.small.yml"},
		{path: "\ufeff.small/intent.small.yml", kind: SMALL, area: Files, rel: "intent.small.yml", folded: true, canonical: ".small/intent.small.yml"},
		{path: ".\u017fmall/intent.small.yml", kind: SMALL, area: Files, rel: "intent.small.yml", folded: true, canonical: ".small/intent.small.yml"}, // long s folds to s
		{path: ".small::$INDEX_ALLOCATION/intent.small.yml", kind: SMALL, area: Files, rel: "intent.small.yml", folded: true, canonical: ".small/intent.small.yml"},
		{path: "Artifacts/notes.md", kind: AWP, area: Artifacts, rel: "notes.md", folded: true, canonical: "artifacts/notes.md"},
		{path: ".AWP/private-key.pem", kind: AWP, area: Private, rel: "private-key.pem", folded: true, canonical: ".awp/private-key.pem"},
		{path: "ARTIFA~1/notes.md", kind: AWP, area: Artifacts, rel: "notes.md", folded: true, canonical: "artifacts/notes.md"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			p := Locate(c.path, declared)
			want := Place{Area: c.area, Rel: c.rel, Folded: c.folded, Canonical: c.canonical, Standalone: c.standalone}
			if c.area != "" {
				want.Workspace = Workspace{Kind: c.kind, Root: c.root}
			}
			if want.Canonical == "" {
				want.Canonical = c.path
			}
			if p != want {
				t.Errorf("Locate = %+v, want %+v", p, want)
			}
			if governed := c.area != ""; p.Governed() != governed {
				t.Errorf("Governed() = %v", p.Governed())
			}
			if c.area != "" && !Candidate(c.path) {
				t.Errorf("a governed path is not a candidate")
			}
		})
	}
}

func TestCandidate(t *testing.T) {
	for path, want := range map[string]bool{
		".small/x":                       true,
		"a/b/.small/x":                   true,
		"a/artifacts/x.md":               true,
		".awp/workspace.json":            true,
		"a/.AWP/x":                       true,
		"src/main.go":                    false,
		"README.md":                      false,
		".small":                         false,
		"docs/small.md":                  false,
		"node_modules/artifact/index.js": false,
		"x/SMALL~2/y":                    true,
	} {
		if got := Candidate(path); got != want {
			t.Errorf("Candidate(%q) = %v, want %v", path, got, want)
		}
		if got := Candidate([]byte(path)); got != want {
			t.Errorf("Candidate([]byte(%q)) = %v, want %v", path, got, want)
		}
	}
}

func TestWorkspacePaths(t *testing.T) {
	small := Workspace{Kind: SMALL, Root: "examples/demo/"}
	if got := small.Path("progress.small.yml"); got != "examples/demo/.small/progress.small.yml" {
		t.Errorf("SMALL path %s", got)
	}
	awp := Workspace{Kind: AWP}
	if got := awp.Path("notes.md"); got != "artifacts/notes.md" {
		t.Errorf("AWP path %s", got)
	}
	if got := awp.String(); got != "artifacts/" {
		t.Errorf("String %s", got)
	}
}

func BenchmarkCandidate(b *testing.B) {
	paths := [][]byte{[]byte("src/internal/pkg/file.go"), []byte("examples/demo/.small/progress.small.yml"), []byte("docs/guide/index.md")}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, p := range paths {
			Candidate(p)
		}
	}
}

// TestEveryDirGoverns: each directory Dirs declares governs the paths
// below it once its workspace is declared, in the kind and area the
// declaration gives, whether spelled exactly, in another case or by its
// 8.3 short name.
func TestEveryDirGoverns(t *testing.T) {
	for _, d := range Dirs() {
		ws := Workspace{Kind: d.Kind, Root: "x/"}
		var decl Declarations
		decl.Add(Declaration{Workspace: ws})
		for _, spelling := range []string{d.Name, strings.ToUpper(d.Name), strings.ToUpper(d.Short) + "1"} {
			p := Locate("x/"+spelling+"/f.md", decl)
			if p.Area != d.Area || p.Workspace != ws || p.Folded != (spelling != d.Name) || p.Canonical != "x/"+d.Name+"/f.md" {
				t.Errorf("%s: %+v", spelling, p)
			}
			if needs := Needs("x/" + spelling + "/f.md"); len(needs) == 0 || needs[0].Workspace != ws {
				t.Errorf("%s: needs %+v", spelling, needs)
			}
		}
		if p := Locate("x/"+d.Name+"/f.md", Declarations{}); p.Governed() {
			t.Errorf("%s governs without a declaration: %+v", d.Name, p)
		}
	}
}
