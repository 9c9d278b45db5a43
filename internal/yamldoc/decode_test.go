package yamldoc

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
)

// TestSyntaxErrorLines names, for each kind of yaml.v3 syntax error, the
// line a person has to fix. yaml.v3 itself reports parser errors one line
// early, errors inside a collection at the collection's start, and errors
// on the first line without a line at all.
func TestSyntaxErrorLines(t *testing.T) {
	cases := []struct {
		name, doc string
		line      int
	}{
		{"did not find expected key: a less indented key", "a:\n  b: 1\n c: 2\n", 3},
		{"did not find expected key: deep in an entry", "a: 1\nb:\n    - x\n   - y\n", 4},
		{"did not find expected key: after a block scalar", "a: |\n  x\n y: 1\n", 3},
		{"did not find expected key: text after a quoted scalar", "a: 1\nb: 'x' y\n", 2},
		{"did not find expected key: a sequence item in a mapping", "a: 1\n- b\n", 2},
		{"did not find expected key: on the first line", "a: [1, 2]]\n", 1},
		{"did not find expected '-' indicator: a key in a sequence", "a:\n  - x\n  b: 1\n", 3},
		{"did not find expected '-' indicator: in an entry's sequence", "entries:\n    - a: 1\n      b: 2\n     c: 3\n", 4},
		{"did not find expected '-' indicator: a key after the entries", "entries:\n    - a: 1\n      b: 2\n      c: 3\n    d: 4\n", 5},
		{"did not find expected node content", "a: 1\nb: ]\n", 2},
		{"did not find expected ',' or ']': the unclosed bracket", "a: 1\nb: [1, 2\nc: 3\n", 2},
		{"did not find expected ',' or ']': over several lines", "a: [\n  1,\n  2\n", 1},
		{"did not find expected ',' or '}'", "a: 1\nb: {x: 1\nc: 3\n", 2},
		{"found undefined tag handle", "a: 1\nb: !e!x x\n", 2},
		{"found incompatible YAML document: a directive in mid-file", "a: 1\n%YAML 1.2\n", 2},
		{"found duplicate %YAML directive", "%YAML 1.1\n%YAML 1.1\n---\na: 1\n", 2},
		{"found duplicate %TAG directive", "%TAG !e! tag:x,2000:\n%TAG !e! tag:y,2000:\n---\na: 1\n", 2},
		{"unknown anchor", "a: &x 1\nb: *x\nc: *z\n", 3},
		{"could not find expected ':'", "a: 1\nb\nc: 3\n", 2},
		{"could not find expected ':' at the end", "a:\n  b: 1\n  c\n", 3},
		{"mapping values are not allowed: on the first line", "a: b: c\n", 1},
		{"mapping values are not allowed", "x: 1\na: b: c\n", 2},
		{"found unexpected end of stream: the unclosed quote", "a: 'x\n\n  y\n", 1},
		{"found unknown escape character: inside a multi-line string", "a: 1\nb: \"x\n  y \\q\"\n", 3},
		{"found unexpected document indicator", "a: 1\nb: \"x\n---\ny\"\n", 3},
		{"found a tab character where an indentation space is expected", "a: 1\nb: >\n  x\n\ty\n", 4},
		{"found a tab character that violates indentation", "a: 1\n\tb: 2\n", 2},
		{"found character that cannot start any token", "a: 1\nb: @x\n", 2},
		{"lines counted at \\r as yaml.v3 counts them", "a: 1\rb: 2\r c: 3\r", 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(c.doc))
			var ye *Error
			if !errors.As(err, &ye) {
				t.Fatalf("got %v, want a syntax error", err)
			}
			if ye.Line != c.line {
				t.Errorf("%v: line %d, want %d", err, ye.Line, c.line)
			}
			if _, err := DecodeAt([]byte(c.doc), 100); !errors.As(err, &ye) || ye.Line != c.line+100 {
				t.Errorf("at offset 100: %v", err)
			}
		})
	}
}

// TestOneDocumentOnly checks that nothing after a document goes unseen: a
// governed file is exactly one document. yaml.v3 reads one document per
// Decode: it stops at "..." (what follows was silently dropped when it did
// not parse as a document), and a "---" line in mid-file ends the first
// document and starts a second, which a second Decode returns.
func TestOneDocumentOnly(t *testing.T) {
	cases := []struct {
		name, doc string
		line      int // 0: the document is fine
	}{
		{"content after ...", "a: 1\n...\nb: 2\n", 3},
		{"junk after ...", "a: 1\n...\n[\n", 3},
		{"a second ...", "a: 1\n...\n...\n", 3},
		{"text on the ... line", "a: 1\n... b: 2\n", 2},
		{"a directive after ...", "a: 1\n...\n%YAML 1.2\n---\nb: 2\n", 3},
		{"a document after ...", "a: 1\n...\n---\nb: 2\n", 3},
		{"content after blank lines and comments after ...", "a: 1\n...\n\n# c\n   \nb\n", 6},
		{"... after \\r", "a: 1\r...\rb: 2\r", 3},
		{"... before the document", "...\na: 1\n", 1},
		{"--- in mid-file", "a: 1\n---\nb: 2\n", 2},
		{"--- ending the file", "a: 1\n---\n", 2},
		{"--- inside a sequence", "a:\n  - x\n---\n  - y\n", 3},
		{"--- with content on its line", "a: 1\n--- b\n", 2},
		{"only comments and blank lines after ...", "a: 1\n...\n# c\n\n   # d\n", 0},
		{"a comment on the ... line", "a: 1\n... # end\n", 0},
		{"... in a value", "a: ...\nb: x...\n", 0},
		{"... in a block scalar", "a: |\n  ...\n  x\n", 0},
		{"--- starting the document", "---\na: 1\n", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Decode([]byte(c.doc))
			if c.line == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var ye *Error
			if !errors.As(err, &ye) || ye.Line != c.line {
				t.Errorf("got %v, want an error on line %d", err, c.line)
			}
		})
	}
}

func TestControlCharactersAreNamedWithTheirLine(t *testing.T) {
	for _, c := range []struct {
		doc  string
		line int
	}{{"a: 1\nb: x\x01\n", 2}, {"a: 1\nb: \x7f\n", 2}, {"a: 1\rb: \u0086\n", 2}, {"a: 1\n\nb: \uffff\n", 3}} {
		_, err := Decode([]byte(c.doc))
		var ye *Error
		if !errors.As(err, &ye) || ye.Line != c.line || !strings.Contains(ye.Msg, "control character") {
			t.Errorf("%q: %v", c.doc, err)
		}
	}
}

func TestIntegersAreExact(t *testing.T) {
	doc, err := Decode([]byte("max: 9223372036854775807\nover: 9223372036854775808\nu64: 12345678901234567890\n" +
		"long: 123456789012345678901234\nneg: -123456789012345678901234\nhex: 0x1F\noctal: 0o17\nold_octal: 0777\n" +
		"under: 1_000\nbinary: -0b101\nfloat: 1.5\nwhole: 2.0\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := doc.Value.(map[string]any)
	want := map[string]string{
		"max": "9223372036854775807", "over": "9223372036854775808", "u64": "12345678901234567890",
		"long": "123456789012345678901234", "neg": "-123456789012345678901234", "hex": "31", "octal": "15",
		"old_octal": "511", "under": "1000", "binary": "-5",
	}
	for k, w := range want {
		if got := fmt.Sprint(m[k]); got != w {
			t.Errorf("%s: %v (%T), want %s", k, m[k], m[k], w)
		}
	}
	if _, ok := m["max"].(int64); !ok {
		t.Errorf("an integer that fits is a %T", m["max"])
	}
	if _, ok := m["long"].(*big.Int); !ok {
		t.Errorf("an integer beyond 64 bits is a %T", m["long"])
	}
	if m["float"] != 1.5 || m["whole"] != 2.0 {
		t.Errorf("floats %v %v", m["float"], m["whole"])
	}
}

func TestEqualComparesNumbersExactly(t *testing.T) {
	value := func(text string) any {
		doc, err := Decode([]byte("v: " + text + "\n"))
		if err != nil {
			t.Fatal(err)
		}
		return doc.Value.(map[string]any)["v"]
	}
	cases := []struct {
		a, b  string
		equal bool
	}{
		{"1", "1.0", true},
		{"1", "0x1", true},
		{"12345678901234567890", "12345678901234567891", false},
		{"123456789012345678901234", "123456789012345678901235", false},
		{"123456789012345678901234", "123_456_789_012_345_678_901_234", true},
		{"9007199254740993", "9007199254740992.0", false},
		{"9007199254740992", "9007199254740992.0", true},
		{"100000000000000000000", "1e20", true},
		{"100000000000000000001", "1e20", false},
		{"9223372036854775807", "9223372036854775808.0", false},
		{"-9223372036854775808", "-9223372036854775808.0", true},
		{"1", "'1'", false},
		{"0.1", "0.1", true},
	}
	for _, c := range cases {
		a, b := value(c.a), value(c.b)
		if Equal(a, b) != c.equal || Equal(b, a) != c.equal {
			t.Errorf("Equal(%s, %s) = %v, want %v", c.a, c.b, Equal(a, b), c.equal)
		}
		if cmp := NewComparer(); cmp.Equal(a, b) != c.equal || cmp.Equal(b, a) != c.equal {
			t.Errorf("Comparer.Equal(%s, %s) = %v, want %v", c.a, c.b, cmp.Equal(a, b), c.equal)
		}
	}
}
