// Package yamldoc decodes YAML into plain JSON-like values while keeping
// the line of every node, so that every finding can name the line it is about.
//
// Values are map[string]any, []any, string, int64, float64, bool and nil.
// YAML typing is kept: an unquoted timestamp is a Timestamp, not a string.
package yamldoc

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// MaxValues bounds how many values one document may expand to, aliases
// included. It stops "billion laughs" documents long before memory runs out.
const MaxValues = 4_000_000

// MaxDepth bounds how deeply values may nest.
const MaxDepth = 200

// MaxBytes bounds the size of a document decoded as a whole: decoding
// takes about twenty times the document's size in memory. (A progress
// file that only grows is checked by decoding what was appended.)
const MaxBytes = 32 << 20

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

// Doc is a decoded YAML document.
type Doc struct {
	// Value is the decoded document.
	Value any
	// Root is the document's top node (never a DocumentNode), for line
	// look-ups.
	Root *yaml.Node
	// LineOffset is added to every line number reported for this document:
	// the number of lines that come before it in its file.
	LineOffset int
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
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		if err.Error() == "EOF" {
			return &Doc{LineOffset: lineOffset}, nil
		}
		return nil, syntaxError(err, lineOffset)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{Line: extra.Line + lineOffset, Msg: "a second YAML document starts here; a governed file holds exactly one"}
	}
	top := &root
	if top.Kind == yaml.DocumentNode {
		if len(top.Content) == 0 {
			return &Doc{LineOffset: lineOffset}, nil
		}
		top = top.Content[0]
	}
	c := converter{offset: lineOffset}
	v, err := c.value(top, 0)
	if err != nil {
		return nil, err
	}
	return &Doc{Value: v, Root: top, LineOffset: lineOffset}, nil
}

// checkText rejects content that is not text: invalid UTF-8 or NUL bytes.
func checkText(data []byte, lineOffset int) error {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return &Error{Line: lineOffset + 1 + bytes.Count(data[:i], []byte("\n")), Msg: "contains a NUL byte: binary content is not YAML"}
	}
	if utf8.Valid(data) {
		return nil
	}
	line := lineOffset + 1
	for len(data) > 0 {
		r, size := utf8.DecodeRune(data)
		if r == utf8.RuneError && size <= 1 {
			return &Error{Line: line, Msg: "is not valid UTF-8"}
		}
		if r == '\n' {
			line++
		}
		data = data[size:]
	}
	return nil
}

// syntaxError turns a yaml.v3 error into an Error with the file's line.
func syntaxError(err error, lineOffset int) error {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	var line int
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, found := strings.Cut(rest, ": "); found {
			if l, convErr := strconv.Atoi(n); convErr == nil {
				line, msg = l, after
			}
		}
	}
	if line > 0 {
		line += lineOffset
	}
	return &Error{Line: line, Msg: "not valid YAML: " + msg}
}

type converter struct {
	offset int
	count  int
}

func (c *converter) fail(n *yaml.Node, format string, args ...any) error {
	return &Error{Line: n.Line + c.offset, Msg: fmt.Sprintf(format, args...)}
}

func (c *converter) value(n *yaml.Node, depth int) (any, error) {
	c.count++
	if c.count > MaxValues {
		return nil, c.fail(n, "document expands to more than %d values (alias bomb?)", MaxValues)
	}
	if depth > MaxDepth {
		return nil, c.fail(n, "nested more than %d levels deep", MaxDepth)
	}
	switch n.Kind {
	case yaml.AliasNode:
		return c.value(n.Alias, depth+1)
	case yaml.ScalarNode:
		return c.scalar(n)
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, item := range n.Content {
			v, err := c.value(item, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		return c.mapping(n, depth)
	}
	return nil, c.fail(n, "unsupported YAML node")
}

func (c *converter) mapping(n *yaml.Node, depth int) (any, error) {
	out := make(map[string]any, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.Tag == "!!merge" {
			return nil, c.fail(k, "merge keys (<<) are not allowed in governed files")
		}
		if k.Kind != yaml.ScalarNode {
			return nil, c.fail(k, "mapping keys must be plain scalars")
		}
		if _, dup := out[k.Value]; dup {
			return nil, c.fail(k, "duplicate key %q", k.Value)
		}
		val, err := c.value(v, depth+1)
		if err != nil {
			return nil, err
		}
		out[k.Value] = val
	}
	return out, nil
}

func (c *converter) scalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, c.fail(n, "bad boolean %q", n.Value)
		}
		return b, nil
	case "!!int":
		var i int64
		if err := n.Decode(&i); err != nil {
			var f float64
			if ferr := n.Decode(&f); ferr != nil {
				return nil, c.fail(n, "bad integer %q", n.Value)
			}
			return f, nil
		}
		return i, nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, c.fail(n, "bad number %q", n.Value)
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, c.fail(n, "%q is not a number JSON can hold", n.Value)
		}
		return f, nil
	case "!!timestamp":
		var t time.Time
		if err := n.Decode(&t); err != nil {
			return n.Value, nil
		}
		return Timestamp{Text: n.Value, Time: t}, nil
	case "!!binary":
		return nil, c.fail(n, "binary values are not allowed in governed files")
	}
	return n.Value, nil
}
