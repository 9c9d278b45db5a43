package yamldoc

import (
	"strings"
	"testing"
)

func TestDecodeKeepsTypesAndLines(t *testing.T) {
	doc, err := Decode([]byte("a: 1\nb: 1.5\nc: \"x\"\nd: 2026-01-01T00:00:00Z\ne:\n  - k: v\n"))
	if err != nil {
		t.Fatal(err)
	}
	m := doc.Value.(map[string]any)
	if m["a"] != int64(1) || m["b"] != 1.5 || m["c"] != "x" {
		t.Errorf("values %#v", m)
	}
	if _, ok := m["d"].(Timestamp); !ok {
		t.Errorf("unquoted timestamp decoded as %T", m["d"])
	}
	if doc.Line("e", "0", "k") != 6 || doc.KeyLine("c") != 3 || doc.Line("nope") != 1 {
		t.Errorf("lines %d %d %d", doc.Line("e", "0", "k"), doc.KeyLine("c"), doc.Line("nope"))
	}
	_, err = DecodeAt([]byte("x: 1\ny: [1, 2\n"), 10)
	if e, ok := err.(*Error); !ok || e.Line < 11 {
		t.Errorf("an error in a document that starts at line 11: %v", err)
	}
}

func TestDecodeRejectsHostileInput(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		bomb += n + ": &" + n + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
		prev = n
	}
	deep := strings.Repeat("[", 5000) + strings.Repeat("]", 5000)
	cases := map[string]string{
		"duplicate key": "a: 1\na: 2\n",
		"alias bomb":    bomb,
		"deep nesting":  "a: " + deep + "\n",
		"NUL byte":      "a: b\x00\n",
		"invalid UTF-8": "a: \xff\xfe\n",
		"two documents": "a: 1\n---\nb: 2\n",
		"merge key":     "b: &b {x: 1}\na:\n  <<: *b\n",
		"syntax":        "a: [\n",
	}
	for name, input := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Decode([]byte(input))
			if _, ok := err.(*Error); !ok {
				t.Fatalf("got %v (%T), want a *yamldoc.Error", err, err)
			}
		})
	}
}

func TestFrontmatter(t *testing.T) {
	fm, err := SplitFrontmatter([]byte("\xef\xbb\xbf---\r\na: 1\r\n---\r\n# Body\r\n---\r\nmore\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if string(fm.YAML) != "a: 1\r\n" || fm.BodyLine != 4 || !strings.Contains(string(fm.Body), "more") {
		t.Errorf("%+v", fm)
	}
	if _, err := SplitFrontmatter([]byte("# no\n")); err != ErrNoFrontmatter {
		t.Errorf("missing: %v", err)
	}
	if _, err := SplitFrontmatter([]byte("---\na: 1\n")); err != ErrUnclosedFrontmatter {
		t.Errorf("unclosed: %v", err)
	}
}

func TestEqual(t *testing.T) {
	a, _ := Decode([]byte("x: [1, {b: 'q', c: 2.0}]\n"))
	b, _ := Decode([]byte("x:\n  - 1.0\n  - c: 2\n    b: \"q\"\n"))
	c, _ := Decode([]byte("x: [1, {b: q, c: 3}]\n"))
	if !Equal(a.Value, b.Value) || Equal(a.Value, c.Value) {
		t.Error("value comparison is wrong")
	}
	if got := ChangedKeys(map[string]any{"a": "1", "b": "2"}, map[string]any{"a": "1", "b": "3", "c": "4"}); strings.Join(got, ",") != "b,c" {
		t.Errorf("changed keys %v", got)
	}
}
