package workspace

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
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
		"---\nsmp:\n  version: 1\n---\n":                              true,  // a mapping is no "false"
		"---\nsmp:\ntitle: [\n---\n":                                  true,  // broken, and the scan cannot judge smp's value: judged
		"---\nsmp: 'false'\n---\n":                                    true,  // a string
		"# Notes\n\nsmp: '1.0'\n":                                     false, // no frontmatter
		"---\ntitle: Run 12\ntags: [ml]\n---\nsmp: 1\n":               false, // in the body
		"---\ntype: note\n---\n":                                      false,
		"---\nmeta:\n  smp: '1.0'\n  type: knowledge-artifact\n---\n": false, // not at the top level
		"---\n# smp: '1.0'\n---\n":                                    false,
		"---\ntype: knowledge-artifacts\n---\n":                       false,
		"---\nsmpx: 1\n---\n":                                         false,
		"":                                                            false,
		"\n---\nsmp: '1.0'\n---\n":                                    false, // the frontmatter opens on the first line
		"---\nsmp: false\n---\n":                                      false, // says it is not an artifact
		"---\nsmp: ~ # no SMP here\n---\n":                            false,
		"---\nsmp:\n---\n":                                            false, // null
		"---\nsmp: false\ntitle: [\n---\n":                            false, // broken, and says no
		"---\n{smp: false, layout: post}\n---\n":                      false,
		"---\nlayout: post\ntitle: Hello, world!\n---\n":              false, // a "!" that is no tag
		"---\ntype: !!str knowledge-artifacts\n---\n":                 false,
	} {
		if got := DeclaresArtifact([]byte(text)); got != want {
			t.Errorf("DeclaresArtifact(%q) = %v, want %v", text, got, want)
		}
	}
}

// declarationShapes are frontmatters that declare a knowledge artifact to
// every YAML reader though no line of them reads "smp: …" or "type:
// knowledge-artifact" as the scan reads lines.
func declarationShapes() []string {
	return []string{
		"---\n{awp: 0.4.0, smp: '1.0', type: knowledge-artifact, id: 'artifact:x'}\n---\n", // a flow mapping
		"---\n{awp: 0.4.0,\n  smp: '1.0',\n  type: knowledge-artifact}\n---\n",             // over several lines
		"---\n? smp\n: '1.0'\n? type\n: knowledge-artifact\n---\n",                         // explicit keys
		"---\n!!str smp: '1.0'\ntype: !!str knowledge-artifact\n---\n",                     // tags
		"---\ntype: knowledge-artifact\t# written by awp\n---\n",                           // a tab before a comment
		"---\n\"\\x73mp\": '1.0'\n---\n",                                                   // an escape
		"---\ntype: !!binary a25vd2xlZGdlLWFydGlmYWN0\n---\n",                              // base64
		"---\n<<: {smp: '1.0'}\n---\n",                                                     // a merge key
		"---\nkind: &k knowledge-artifact\ntype: *k\n---\n",                                // an alias
		"---\ntitle: x\rsmp: '1.0'\n---\n",                                                 // a line break the scan does not split at
		"---\n\"type\": \"knowledge-\\\n  artifact\"\n---\n",                               // an escaped line break
	}
}

// TestDeclaresArtifactAsYAMLReadsIt: each shape of declarationShapes
// declares, with CRLF line ends and after a BOM too.
func TestDeclaresArtifactAsYAMLReadsIt(t *testing.T) {
	for _, s := range declarationShapes() {
		for _, v := range []string{s, strings.ReplaceAll(s, "\n", "\r\n"), "\xef\xbb\xbf" + s} {
			if !DeclaresArtifact([]byte(v)) {
				t.Errorf("DeclaresArtifact(%q) = false", v)
			}
		}
	}
}

// TestDeclarationDecodingIsBounded counts what deciding a declaration
// allocates as the frontmatter doubles: linear up to
// MaxDecodedFrontmatter, where the frontmatter is decoded; above it,
// nothing more than the scan (the frontmatter is not decoded, and
// declares when it holds what a declaration needs: fail closed).
func TestDeclarationDecodingIsBounded(t *testing.T) {
	flow := func(size int) []byte {
		item := "word, "
		return []byte("---\n{smp: '1.0', words: [" + strings.Repeat(item, size/len(item)) + "]}\n---\n# Body\n")
	}
	var below []uint64
	for size := MaxDecodedFrontmatter / 8; size <= MaxDecodedFrontmatter/2; size *= 2 {
		data := flow(size)
		b := allocated(t, func() {
			if !DeclaresArtifact(data) {
				t.Fatalf("a flow mapping of %d bytes does not declare", size)
			}
		})
		below = append(below, b)
	}
	for i := 1; i < len(below); i++ {
		if below[i] > below[i-1]*5/2 {
			t.Errorf("decoding twice the frontmatter allocates %d bytes, %d before: more than linear", below[i], below[i-1])
		}
	}
	var above []uint64
	for size := 2 * MaxDecodedFrontmatter; size <= 8*MaxDecodedFrontmatter; size *= 2 {
		data := flow(size)
		above = append(above, allocated(t, func() {
			if !DeclaresArtifact(data) {
				t.Fatalf("a flow mapping of %d bytes that says smp does not declare", size)
			}
		}))
		jekyll := []byte("---\n{layout: post, words: [" + strings.Repeat("word, ", size/6) + "]}\n---\n")
		above = append(above, allocated(t, func() {
			if DeclaresArtifact(jekyll) {
				t.Fatalf("a frontmatter of %d bytes that holds nothing a declaration needs declares", size)
			}
		}))
	}
	for _, b := range above {
		if b > 64<<10 {
			t.Errorf("deciding the declaration of a frontmatter above the bound allocates %d bytes: it was decoded", b)
		}
	}
}

// allocated returns the bytes f allocates.
func allocated(t *testing.T, f func()) uint64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
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
