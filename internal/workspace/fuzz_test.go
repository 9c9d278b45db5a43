package workspace

import (
	"bytes"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// FuzzLocate: a path is governed exactly when one of the declarations it
// needs is declared, and then by the first of them.
func FuzzLocate(f *testing.F) {
	for _, p := range []string{".small/plan.small.yml", "a/artifacts/x.md", "Artifacts/x.md", "x/.AWP/workspace.json", "artifacts/.small/a/artifacts/b.md", "src/main.go", "SMALL~1/x"} {
		f.Add(p, 0)
	}
	f.Add("artifacts/.small/a/artifacts/b.md", 0b101)
	f.Add("x/artifacts/ARTIFACTS/artifacts/y.md", 0b1110)
	f.Fuzz(func(t *testing.T, path string, pick int) {
		needs := Needs(path)
		if got := Locate(path, Declarations{}); got.Governed() {
			t.Fatalf("nothing declared, yet %q is governed: %+v", path, got)
		}
		if len(needs) == 0 {
			return
		}
		if pick < 0 {
			pick = -pick
		}
		x := needs[pick%len(needs)]
		var d Declarations
		d.Add(x)
		p := Locate(path, d)
		if !p.Governed() || !Candidate(path) {
			t.Fatalf("%q needs %+v, which is declared, yet is not governed: %+v", path, x, p)
		}
		if p.Standalone != (x.Artifact != "") {
			t.Fatalf("%q governed by %+v: standalone %v", path, x, p.Standalone)
		}
		// Any set of them: the index finds what asking for each finds.
		var some Declarations
		for i, x := range needs {
			if pick>>(i%31)&1 == 1 {
				some.Add(x)
			}
		}
		if got, want := Locate(path, some), locateByAsking(path, some); got != want {
			t.Fatalf("%q: Locate %+v, asking each directory %+v", path, got, want)
		}
	})
}

// locateByAsking is Locate asking the set for each governing directory's
// workspace in turn.
func locateByAsking(path string, d Declarations) Place {
	for _, g := range governingDirs(path) {
		p := placeIn(path, g)
		switch {
		case d.Has(Declaration{Workspace: p.Workspace}):
		case g.markdown && d.Has(Declaration{Artifact: g.canonical}):
			p.Standalone = true
		default:
			continue
		}
		return p
	}
	return Place{Canonical: path}
}

// FuzzDeclaresArtifact: the declaration does not depend on a UTF-8 BOM or
// on line endings, and never panics.
func FuzzDeclaresArtifact(f *testing.F) {
	for _, s := range []string{"---\nsmp: '1.0'\n---\n", "---\ntype: knowledge-artifact\n", "# x\n", "---\n---\nsmp: 1\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := DeclaresArtifact(data)
		if bytes.Contains(data, []byte("\r")) || bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
			return
		}
		if DeclaresArtifact(append([]byte("\xef\xbb\xbf"), data...)) != got {
			t.Fatalf("a BOM changes the declaration of %q", data)
		}
		if DeclaresArtifact(bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))) != got {
			t.Fatalf("CRLF changes the declaration of %q", data)
		}
	})
}

// FuzzDeclarationAsYAMLReadsIt: whatever the authorities read as a
// declaration, DeclaresArtifact declares: yaml.v3 decoding the
// frontmatter (the first document, as yaml.Unmarshal reads it), and
// small-hook's own decoding of it, which rules/smp judges
// (yamldoc.SplitFrontmatter and yamldoc.DecodeAt). The scan and the
// decoding may declare more (a broken frontmatter that says smp), never
// less.
func FuzzDeclarationAsYAMLReadsIt(f *testing.F) {
	for _, s := range append(declarationShapes(), "---\nsmp: false\n---\n", "---\nsmp: '1.0'\nsmp: false\n---\n", "---\n<<: [{a: 1}, {smp: 1}]\n---\n", "---\nx: 1\rsmp: 2\n---\n") {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := DeclaresArtifact(data)
		fm, err := yamldoc.SplitFrontmatter(data)
		if err != nil {
			return
		}
		var v any
		if yaml.Unmarshal(fm.YAML, &v) == nil && declaringValue(v) && !got {
			t.Fatalf("yaml.v3 reads a declaration in %q, DeclaresArtifact does not", data)
		}
		if doc, err := yamldoc.DecodeAt(fm.YAML, fm.Line-1); err == nil && declaringValue(doc.Value) && !got {
			t.Fatalf("rules/smp reads a declaration in %q, DeclaresArtifact does not", data)
		}
	})
}

// declaringValue is the oracle: a decoded frontmatter declares a
// knowledge artifact when it is a mapping whose type is
// knowledge-artifact, or whose smp is neither false nor null.
func declaringValue(v any) bool {
	var typ, smp any
	var hasSMP bool
	switch m := v.(type) {
	case map[string]any:
		typ = m["type"]
		smp, hasSMP = m["smp"]
	case map[any]any:
		typ = m["type"]
		smp, hasSMP = m["smp"]
	default:
		return false
	}
	return typ == "knowledge-artifact" || hasSMP && smp != nil && smp != false
}
