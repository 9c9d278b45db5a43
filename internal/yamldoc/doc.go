// Package yamldoc decodes YAML into plain JSON-like values while keeping
// the line of every node, so that every finding can name the line it is
// about, and proves from the bytes alone that a file only grew by new items
// of a sequence (FindSequenceEnd, ProveAppend).
//
// Values are map[string]any, []any, string, int64, *big.Int, float64, bool,
// nil and Timestamp. YAML typing is kept: an unquoted timestamp is a
// Timestamp, not a string. Integers are exact: an int64 when they fit, a
// *big.Int otherwise (also when yaml.v3 calls a long decimal integer a
// float). An anchored value is decoded once and shared by its aliases, so
// values must be treated as read-only.
//
// A governed file is exactly one document: a second document, or anything
// but blank lines and comments after a "..." document-end marker, is an
// Error.
package yamldoc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"gopkg.in/yaml.v3"
)

// MaxValues bounds how many values one document may expand to, aliases
// included. It stops "billion laughs" documents long before memory runs out.
const MaxValues = 4_000_000

// MaxExpandedBytes bounds the text one document may expand to, aliases
// included: the bytes of its scalars and keys, each counted again at
// every alias that repeats it. yaml.v3 guards its own decoding by
// counting nodes (it refuses a document once aliases make up more than
// 10 to 99% of the nodes decoded, by size), which leaves a long string
// aliased a thousand times alone: it shares the string, as Decode does.
// But whatever reads a value where it stands — a schema, a hash — reads
// its bytes again at each alias, so this counts bytes: four times the
// largest document decoded as a whole (the secret scan reads a string
// that aliases repeat once, see String.Anchor).
const MaxExpandedBytes = 4 * MaxBytes

// MaxDepth bounds how deeply values may nest.
const MaxDepth = 200

// MaxBytes bounds the size of a document decoded as a whole: decoding
// takes about twenty times the document's size in memory. (A progress
// file that only grows is checked by decoding what was appended.)
const MaxBytes = 32 << 20

// keepNodesFrom is the size from which a Doc keeps its nodes: parsing a
// large document again for the line of a finding would take seconds, and
// a commit holds few such documents.
const keepNodesFrom = 1 << 20

// Timestamp is an unquoted YAML timestamp. It is kept apart from strings so
// that a schema that wants a string rejects it, as the reference tools do.
type Timestamp struct {
	// Text is the timestamp as written.
	Text string
	// Time is its parsed value.
	Time time.Time
}

// Error is a problem with the document itself, at a line (0 when unknown).
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Doc is a decoded YAML document. It keeps the decoded values and its
// string scalars and, below keepNodesFrom bytes, not yaml.v3's nodes: those
// take several times the memory of the values, and a commit of thousands
// of files keeps every document it decodes; Root parses such a document
// again the first time it is asked for. A Doc is safe for concurrent use.
type Doc struct {
	// Value is the decoded document.
	Value any
	// LineOffset is added to every line number reported for this document:
	// the number of lines that come before it in its file.
	LineOffset int
	// Strings are the document's string scalars, in document order.
	Strings []String
	// text is the decoded text, from which Root parses node again; node
	// is set from the start for a document of keepNodesFrom bytes or more
	// and for one cut out of another (see previousItem).
	text []byte
	node *yaml.Node
	once sync.Once
}

// Root returns the document's top node (never a DocumentNode), for line
// look-ups; nil for an empty document.
func (d *Doc) Root() *yaml.Node {
	if d == nil {
		return nil
	}
	d.once.Do(func() {
		if d.node == nil && d.text != nil {
			d.node, _ = parseTop(d.text)
		}
	})
	return d.node
}

// parseTop parses text, a document that decodes, into its top node.
func parseTop(text []byte) (*yaml.Node, error) {
	var root yaml.Node
	if err := yaml.NewDecoder(bytes.NewReader(text)).Decode(&root); err != nil {
		return nil, err
	}
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, nil
		}
		return root.Content[0], nil
	}
	return &root, nil
}

// Decode parses one YAML document. The data must be UTF-8 (a BOM is
// accepted); an empty document decodes to a nil Value and a nil Root.
func Decode(data []byte) (*Doc, error) {
	return DecodeAt(data, 0)
}

// DecodeAt is Decode for a document that starts after lineOffset lines of
// its file; all lines it reports are lines of the file.
func DecodeAt(data []byte, lineOffset int) (*Doc, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(data) > MaxBytes {
		return nil, &Error{Line: lineOffset + 1, Msg: fmt.Sprintf("is %d MiB, more than the %d MiB small-hook decodes as a whole", len(data)>>20, MaxBytes>>20)}
	}
	if err := checkText(data, lineOffset); err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return &Doc{LineOffset: lineOffset}, nil
		}
		return nil, syntaxError(data, err, lineOffset)
	}
	if line := contentAfterEnd(data); line > 0 {
		return nil, &Error{Line: line + lineOffset, Msg: "content after the document end marker '...': a governed file holds exactly one YAML document"}
	}
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		return nil, &Error{Line: extra.Line + lineOffset, Msg: "a second YAML document starts here; a governed file holds exactly one"}
	case !errors.Is(err, io.EOF):
		return nil, syntaxError(data, err, lineOffset)
	}
	top := &root
	if top.Kind == yaml.DocumentNode {
		if len(top.Content) == 0 {
			return &Doc{LineOffset: lineOffset}, nil
		}
		top = top.Content[0]
	}
	c := converter{offset: lineOffset}
	v, err := c.anchored(top, 0)
	if err != nil {
		return nil, err
	}
	doc := &Doc{Value: v, LineOffset: lineOffset, Strings: stringsOf(top), text: data}
	if len(data) >= keepNodesFrom {
		doc.node = top
	}
	return doc, nil
}
