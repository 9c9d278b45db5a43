package secrets

import (
	"bytes"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
)

// yamlRegion returns the YAML a file holds and the number of lines before
// it: the whole of a *.yml or *.yaml file, the frontmatter of an artifact.
func yamlRegion(p string, data []byte) (yml []byte, offset int, ok bool) {
	switch {
	case strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml"):
		return data, 0, true
	case path.Base(path.Dir(p)) == "artifacts" && strings.HasSuffix(p, ".md"):
		fm, err := yamldoc.SplitFrontmatter(data)
		if err != nil {
			return nil, 0, false
		}
		return fm.YAML, fm.Line - 1, true
	}
	return nil, 0, false
}

// scalar is a string scalar of a YAML document and where it is written.
type scalar struct {
	// value is the decoded string.
	value string
	// key is the mapping key the scalar is the value of ("" for a key, a
	// sequence item or the document itself).
	key string
	// line and end are the first and last file lines it is written on,
	// from its key's line for a mapping value (for an alias, the alias's
	// line).
	line, end int
	// verbatim is set when the raw line holds the decoded string as it
	// is, after its key if it has one: the raw text was scanned, decoding
	// adds nothing.
	verbatim bool
	// same is the index, among the scalars of its document, of the first
	// that holds the same string: the anchor of an alias, itself
	// otherwise.
	same int
}

// scalars decodes the YAML of blob b at path p, once per blob, and lists
// its string scalars in document order; nil when the file holds no YAML
// or it does not decode (the parse rules report that).
func scalars(pass *rules.Pass, p string, b *changes.Blob) []scalar {
	yml, offset, ok := yamlRegion(p, b.Data)
	if !ok {
		return nil
	}
	return scalarFacts.Get(pass, yamlOf{b, yml, offset, path.Ext(p)})
}

// yamlOf is the YAML of a version of a file: where it lies, and the
// file's extension, which says where a file holds YAML (see yamlRegion).
type yamlOf struct {
	b      *changes.Blob
	yml    []byte
	offset int
	ext    string
}

// yamlOfKey names the YAML of a version of a file.
type yamlOfKey struct {
	blob rules.VersionKey
	ext  string
}

// scalarFacts is the fact of the string scalars of a version's YAML.
var scalarFacts = rules.NewFact(
	func(y yamlOf) any { return yamlOfKey{rules.BlobKey(y.b), y.ext} },
	func(pass *rules.Pass, y yamlOf) []scalar {
		doc, err := pass.YAML(y.b, y.yml, y.offset)
		if err != nil {
			return nil
		}
		return walkScalars(doc, y.yml, y.offset)
	})

// changedScalars returns the scalars of a change's new version that may
// lie on added lines: when the change appends items to a progress file's
// entries (as the append proof shows, see yamldoc.ProveAppend), those of
// the appended items alone, decoded once with the proof; otherwise every
// scalar of the new version.
func changedScalars(pass *rules.Pass, ch changes.Change) []scalar {
	if pass.Unit.Mode == changes.ModeTree || ch.Merge != nil || ch.Old == nil || ch.Old.Regular() != nil || path.Base(ch.Path) != "progress.small.yml" {
		return scalars(pass, ch.Path, ch.New)
	}
	app := pass.Appended(ch.Old, ch.New, "entries")
	if app == nil {
		return scalars(pass, ch.Path, ch.New)
	}
	return appendedScalarFacts.Get(pass, proved{app, ch.Old, ch.New})
}

// proved is an append proved from an old version to a new one.
type proved struct {
	app      *yamldoc.Append
	old, now *changes.Blob
}

// provedKey names an append by its two versions.
type provedKey struct {
	old, now rules.VersionKey
}

// appendedScalarFacts is the fact of the scalars of the items an append
// adds.
var appendedScalarFacts = rules.NewFact(
	func(a proved) any { return provedKey{rules.BlobKey(a.old), rules.BlobKey(a.now)} },
	func(_ *rules.Pass, a proved) []scalar { return appendedScalars(a.app, a.now.Data[len(a.old.Data):]) })

// appendedScalars lists the scalars of the items an append proved to
// add, whose text is tail.
func appendedScalars(app *yamldoc.Append, tail []byte) []scalar {
	return walkScalars(app.Items, tail, app.Items.LineOffset)
}

// walkScalars lists the scalars of doc, decoded from yml, which starts
// after offset lines of its file.
func walkScalars(doc *yamldoc.Doc, yml []byte, offset int) []scalar {
	w := walker{lines: bytes.Split(bytes.TrimSuffix(yml, []byte("\n")), []byte("\n")), offset: offset}
	found := make([]scalar, 0, len(doc.Strings))
	for i, str := range doc.Strings {
		s := scalar{value: str.Value, key: str.Key, line: str.Line + offset, end: str.Line + offset, same: i}
		if str.Alias {
			s.same = str.Anchor
		} else {
			s.line, s.end = w.extent(str)
			s.verbatim = s.line == s.end && bytes.Contains(w.raw(str.Line), []byte(s.value))
		}
		if str.KeyLine > 0 && str.KeyLine+offset < s.line {
			// A value on the lines after its key: gitleaks recognises it
			// only when the key comes right before it.
			s.line, s.verbatim = str.KeyLine+offset, false
		}
		found = append(found, s)
	}
	return found
}

// walker places scalars on the lines of the YAML text that spell them.
type walker struct {
	lines  [][]byte
	offset int
}

// extent returns the first and last file lines scalar s is written on.
func (w *walker) extent(s yamldoc.String) (line, end int) {
	line = s.Line + w.offset
	end = max(line, w.quotedEnd(s))
	if end > line || s.Quote != 0 || bytes.Contains(w.raw(s.Line), []byte(s.Value)) {
		return line, end
	}
	// A block or multi-line plain scalar ends before the next node's line.
	end = w.offset + len(w.lines)
	if s.NextLine > 0 {
		end = max(s.NextLine-1+w.offset, line)
	}
	return line, end
}

// raw returns line n (1-based) of the YAML text.
func (w *walker) raw(n int) []byte {
	if n < 1 || n > len(w.lines) {
		return nil
	}
	return w.lines[n-1]
}

// quotedEnd returns the file line on which a quoted scalar closes (its
// first line for other scalars).
func (w *walker) quotedEnd(s yamldoc.String) int {
	quote := s.Quote
	if quote == 0 {
		return s.Line + w.offset
	}
	line, col := s.Line, afterRunes(w.raw(s.Line), s.Column)
	for escaped := false; line <= len(w.lines); line, col = line+1, 0 {
		text := w.raw(line)
		for i := col; i < len(text); i++ {
			switch c := text[i]; {
			case escaped:
				escaped = false
			case c == '\\' && quote == '"':
				escaped = true
			case c == quote && quote == '\'' && i+1 < len(text) && text[i+1] == '\'':
				i++
			case c == quote:
				return line + w.offset
			}
		}
		escaped = false
	}
	return len(w.lines) + w.offset
}

// afterRunes returns the byte offset just after the first n runes of text
// (yaml.v3 counts columns in characters): past the opening quote at
// column n.
func afterRunes(text []byte, n int) int {
	off := 0
	for ; n > 0 && off < len(text); n-- {
		_, size := utf8.DecodeRune(text[off:])
		off += size
	}
	return off
}
