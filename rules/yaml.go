package rules

import (
	"sync"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/yamldoc"
)

// YAML decodes yml, the YAML text of blob b that starts after lineOffset
// lines of the file (all of a .yml file, an artifact's frontmatter), once
// per run for every rule that asks: the SMALL rules and the secret rules
// read the same documents, and decoding a large progress file is among the
// costliest things a check does.
func (p *Pass) YAML(b *changes.Blob, yml []byte, lineOffset int) (*yamldoc.Doc, error) {
	d := yamlDocs.Get(p, yamlText{b, yml, lineOffset})
	return d.doc, d.err
}

// YAMLFiles decodes the blobs that are regular files as YAML, as YAML does
// with the whole file, each on its own goroutine: a merge compares several
// versions of a file that may be large, and the decodings are independent.
// The cache decodes each once, whoever asks first.
func (p *Pass) YAMLFiles(blobs ...*changes.Blob) {
	var wg sync.WaitGroup
	for _, b := range blobs {
		if b != nil && b.Regular() == nil {
			wg.Go(func() { p.YAML(b, b.Data, 0) })
		}
	}
	wg.Wait()
}

// yamlText is YAML text to decode: the text of a blob (all of it, or an
// artifact's frontmatter) and the number of lines before it.
type yamlText struct {
	b      *changes.Blob
	yml    []byte
	offset int
}

// yamlDocs is the fact of a YAML text decoded, keyed by its blob and
// where the text lies in it.
var yamlDocs = NewFact(
	func(t yamlText) any { return yamlKey{BlobKey(t.b), t.offset, len(t.yml)} },
	func(_ *Pass, t yamlText) decoded {
		doc, err := yamldoc.DecodeAt(t.yml, t.offset)
		return decoded{doc, err}
	})

// yamlKey names a YAML text of a blob: the lines before it and its length.
type yamlKey struct {
	blob         VersionKey
	offset, size int
}

// decoded is a document YAML decoded, or why it could not.
type decoded struct {
	doc *yamldoc.Doc
	err error
}

// SequenceEnd is yamldoc.FindSequenceEnd of the sequence under key in
// blob b, once per run for every rule.
func (p *Pass) SequenceEnd(b *changes.Blob, key string) *yamldoc.SequenceEnd {
	return sequenceEnds.Get(p, sequence{b, key})
}

// sequence is the sequence under a top-level key of a blob.
type sequence struct {
	b   *changes.Blob
	key string
}

// sequenceKey names a sequence of a blob.
type sequenceKey struct {
	blob VersionKey
	key  string
}

// sequenceEnds is the fact of where a sequence ends (see
// yamldoc.FindSequenceEnd).
var sequenceEnds = NewFact(
	func(s sequence) any { return sequenceKey{BlobKey(s.b), s.key} },
	func(_ *Pass, s sequence) *yamldoc.SequenceEnd { return yamldoc.FindSequenceEnd(s.b.Data, s.key) })

// Appended is yamldoc.ProveAppend of now over old for the sequence under
// key, once per run for every rule; nil when the proof does not go
// through. The end of now's sequence is kept for the next change of a
// range, which starts from now.
func (p *Pass) Appended(old, now *changes.Blob, key string) *yamldoc.Append {
	app := appends.Get(p, appended{old, now, key})
	if app != nil {
		sequenceEnds.Offer(p, sequence{now, key}, app.End)
	}
	return app
}

// appended is the sequence under key of two versions of a file.
type appended struct {
	old, now *changes.Blob
	key      string
}

// appendKey names two versions of a sequence.
type appendKey struct {
	old, now VersionKey
	key      string
}

// appends is the fact of the proof that a version of a sequence appends
// items to another (see yamldoc.ProveAppend).
var appends = NewFact(
	func(a appended) any { return appendKey{BlobKey(a.old), BlobKey(a.now), a.key} },
	func(p *Pass, a appended) *yamldoc.Append {
		return yamldoc.ProveAppend(p.SequenceEnd(a.old, a.key), a.old.Data, a.now.Data)
	})
