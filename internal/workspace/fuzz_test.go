package workspace

import (
	"bytes"
	"testing"
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
