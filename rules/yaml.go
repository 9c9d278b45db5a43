package rules

import (
	"strconv"
	"sync"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/yamldoc"
)

// YAML decodes yml, the YAML text of blob b that starts after lineOffset
// lines of the file (all of a .yml file, an artifact's frontmatter), once
// per run for every rule that asks: the SMALL rules and the secret rules
// read the same documents, and decoding a large progress file is among the
// costliest things a check does.
func (p *Pass) YAML(b *changes.Blob, yml []byte, lineOffset int) (*yamldoc.Doc, error) {
	d := p.Memo(yamlKey(b, yml, lineOffset), func() any {
		doc, err := yamldoc.DecodeAt(yml, lineOffset)
		return decoded{doc, err}
	}).(decoded)
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

// yamlKey names the decoding of yml, the YAML text of b after lineOffset
// lines, in the cache.
func yamlKey(b *changes.Blob, yml []byte, lineOffset int) string {
	return "yaml:" + b.Hash + ":" + strconv.Itoa(lineOffset) + ":" + strconv.Itoa(len(yml))
}

// decoded is a document YAML decoded, or why it could not.
type decoded struct {
	doc *yamldoc.Doc
	err error
}

// SequenceEnd is yamldoc.FindSequenceEnd of the sequence under key in
// blob b, once per run for every rule.
func (p *Pass) SequenceEnd(b *changes.Blob, key string) *yamldoc.SequenceEnd {
	return p.Memo("yaml-end:"+key+":"+b.Hash, func() any {
		return yamldoc.FindSequenceEnd(b.Data, key)
	}).(*yamldoc.SequenceEnd)
}

// Appended is yamldoc.ProveAppend of now over old for the sequence under
// key, once per run for every rule; nil when the proof does not go
// through. The end of now's sequence is kept for the next change of a
// range, which starts from now.
func (p *Pass) Appended(old, now *changes.Blob, key string) *yamldoc.Append {
	app := p.Memo("yaml-append:"+key+":"+old.Hash+">"+now.Hash, func() any {
		return yamldoc.ProveAppend(p.SequenceEnd(old, key), old.Data, now.Data)
	}).(*yamldoc.Append)
	if app != nil {
		p.Memo("yaml-end:"+key+":"+now.Hash, func() any { return app.End })
	}
	return app
}
