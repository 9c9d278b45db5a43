// Package orderedjson reads and writes JSON documents that people and
// other programs also edit: an object keeps its keys in the order the
// document has them, a number keeps the digits it is written with, and
// Encode writes what JavaScript's JSON.stringify(value, null, indent)
// writes. small-hook edits agents' settings files with it (without
// disturbing what it does not own) and computes Jupyter notebooks as
// Claude Code's NotebookEdit writes them.
package orderedjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind is the type of a JSON value.
type Kind int

// The kinds of JSON value.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is one JSON value.
type Value struct {
	Kind Kind
	// Bool is a boolean's value.
	Bool bool
	// Text is a number as written, or a string's value.
	Text string
	// Items are an array's values.
	Items []Value
	// Members are an object's members, in order; a key occurs once.
	Members []Member
}

// Member is one key of an object and its value.
type Member struct {
	Key   string
	Value Value
}

// Str returns a string value.
func Str(s string) Value { return Value{Kind: String, Text: s} }

// Obj returns an object of members.
func Obj(members ...Member) Value { return Value{Kind: Object, Members: members} }

// Arr returns an array of items.
func Arr(items ...Value) Value { return Value{Kind: Array, Items: items} }

// Decode reads one JSON document. A key that occurs twice in an object
// keeps its first place and its last value, as JSON.parse does.
func Decode(data []byte) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return Value{}, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Value{}, errors.New("more than one JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (Value, error) {
	tok, err := dec.Token()
	if err != nil {
		return Value{}, err
	}
	switch t := tok.(type) {
	case nil:
		return Value{Kind: Null}, nil
	case bool:
		return Value{Kind: Bool, Bool: t}, nil
	case json.Number:
		return Value{Kind: Number, Text: t.String()}, nil
	case string:
		return Str(t), nil
	case json.Delim:
		if t == '[' {
			v := Value{Kind: Array, Items: []Value{}}
			for dec.More() {
				item, err := decodeValue(dec)
				if err != nil {
					return Value{}, err
				}
				v.Items = append(v.Items, item)
			}
			_, err := dec.Token()
			return v, err
		}
		v := Value{Kind: Object, Members: []Member{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return Value{}, err
			}
			key, _ := kt.(string)
			item, err := decodeValue(dec)
			if err != nil {
				return Value{}, err
			}
			v.Set(key, item)
		}
		_, err := dec.Token()
		return v, err
	}
	return Value{}, fmt.Errorf("unexpected %v", tok)
}

// Get returns the value of an object's key, or nil.
func (v *Value) Get(key string) *Value {
	for i := range v.Members {
		if v.Members[i].Key == key {
			return &v.Members[i].Value
		}
	}
	return nil
}

// Set gives an object's key a value, in its place when the key is there,
// at the end otherwise.
func (v *Value) Set(key string, value Value) {
	if old := v.Get(key); old != nil {
		*old = value
		return
	}
	v.Members = append(v.Members, Member{Key: key, Value: value})
}

// Delete removes an object's key.
func (v *Value) Delete(key string) {
	for i := range v.Members {
		if v.Members[i].Key == key {
			v.Members = append(v.Members[:i:i], v.Members[i+1:]...)
			return
		}
	}
}

// Encode writes v as JSON.stringify(v, null, indent) does: each member and
// item on a line of its own, indented by indent per level ("" writes it
// all on one line), and an empty array or object as [] or {}.
func (v Value) Encode(indent string) []byte {
	var b bytes.Buffer
	v.encode(&b, indent, "")
	return b.Bytes()
}

func (v Value) encode(b *bytes.Buffer, indent, prefix string) {
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		b.WriteString(v.Text)
	case String:
		writeString(b, v.Text)
	case Array:
		if len(v.Items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, item := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, indent, prefix+indent)
			item.encode(b, indent, prefix+indent)
		}
		newline(b, indent, prefix)
		b.WriteByte(']')
	case Object:
		if len(v.Members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			newline(b, indent, prefix+indent)
			writeString(b, m.Key)
			b.WriteByte(':')
			if indent != "" {
				b.WriteByte(' ')
			}
			m.Value.encode(b, indent, prefix+indent)
		}
		newline(b, indent, prefix)
		b.WriteByte('}')
	}
}

func newline(b *bytes.Buffer, indent, prefix string) {
	if indent != "" {
		b.WriteByte('\n')
		b.WriteString(prefix)
	}
}

// writeString writes s quoted as JSON.stringify quotes it: ", \ and the
// control characters escaped (\b \f \n \r \t, \u00XX for the others),
// everything else as it is; bytes that are not UTF-8 are written as
// U+FFFD, which is what a JavaScript string holds for them.
func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}

// Indent returns the indentation a document written by a person or a tool
// uses per level: the white space that starts its first indented line,
// or "" when no line is indented.
func Indent(data []byte) string {
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed != "" && len(trimmed) < len(line) {
			return line[:len(line)-len(trimmed)]
		}
	}
	return ""
}
