package rules

import (
	"testing"

	"github.com/small-hook/small-hook/internal/changes"
)

// TestYAMLFilesDecodesAsYAMLDoes: the versions decoded together are the
// ones YAML then returns, errors included, and a blob that is not a
// regular file is left to YAML.
func TestYAMLFilesDecodesAsYAMLDoes(t *testing.T) {
	p := &Pass{cache: newCache()}
	good := &changes.Blob{Hash: "a", Kind: changes.KindFile, Data: []byte("entries:\n  - a: 1\n")}
	bad := &changes.Blob{Hash: "b", Kind: changes.KindFile, Data: []byte("entries: [\n")}
	link := &changes.Blob{Hash: "c", Kind: changes.KindSymlink, Data: []byte("x: 1\n")}
	p.YAMLFiles(good, bad, link, nil, good)
	cached := func(b *changes.Blob, missing any) any {
		return p.cache.get(factKey{yamlDocs, yamlKey{BlobKey(b), 0, len(b.Data)}}, func() any { return missing })
	}
	for _, b := range []*changes.Blob{good, bad} {
		if _, ok := cached(b, nil).(decoded); !ok {
			t.Errorf("%s was not decoded ahead", b.Hash)
		}
	}
	if cached(link, "not decoded") != "not decoded" {
		t.Error("a symbolic link was decoded as YAML")
	}
	doc, err := p.YAML(good, good.Data, 0)
	if err != nil || doc.Node("entries") == nil {
		t.Errorf("good: %v, %v", doc, err)
	}
	if _, err := p.YAML(bad, bad.Data, 0); err == nil {
		t.Error("bad: no error")
	}
}
