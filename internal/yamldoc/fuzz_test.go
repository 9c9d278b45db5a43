package yamldoc

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"gopkg.in/yaml.v3"
)

// FuzzDecode checks Decode on any input: it never panics; it fails only
// with an *Error whose line is a line of the input; it is deterministic
// (a copy decodes the same way); the values of two decodes are Equal both
// ways and for a Comparer; Line and KeyLine resolve every path into the
// value to a line of the input; and its Strings agree with its nodes.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"a: 1\n", "- x\n- y\n", "a: &x [1, 2]\nb: *x\n", "a: 1\na: 2\n", "\xef\xbb\xbfa: b\r\n",
		"t: 2026-01-01T00:00:00Z\n", "a: [\n", "<<: {a: 1}\n", "a: !!binary aGk=\n", "",
		"a: 1\n...\nb: 2\n", "a: 1\n---\nb: 2\n", "a:\n  - x\n  b: 1\n", "n: 123456789012345678901234\n",
		"a: 1\rb: 2\r", "a: \"x\\q\"\n", "x: &a {k: [1, 2.0, '3']}\ny: [*a, *a]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Decode(data)
		again, errAgain := Decode(append([]byte(nil), data...))
		lines := countLines(data)
		if err != nil {
			var ye *Error
			if !errors.As(err, &ye) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			if ye.Line < 1 || ye.Line > lines+1 {
				t.Fatalf("error on line %d of %d: %v", ye.Line, lines, err)
			}
			if errAgain == nil || errAgain.Error() != err.Error() {
				t.Fatalf("decoding a copy gave %v, not %v", errAgain, err)
			}
			return
		}
		if errAgain != nil {
			t.Fatalf("decoding a copy failed: %v", errAgain)
		}
		if doc.Value != nil && doc.Root() == nil {
			t.Fatal("a value without a root node")
		}
		if !Equal(doc.Value, again.Value) || !Equal(again.Value, doc.Value) {
			t.Fatal("two decodes of the same text are not equal")
		}
		if !NewComparer().Equal(doc.Value, again.Value) {
			t.Fatal("a Comparer finds two decodes of the same text different")
		}
		budget := 2000
		walkLines(t, doc, nil, doc.Value, lines, &budget)
		checkStrings(t, doc, lines)
	})
}

// checkStrings checks a document's Strings against its nodes: each is on
// a line of the document, in document order, and its NextLine is what
// sorting the line of every node gives (the oracle of the walk that
// places them as it goes).
func checkStrings(t *testing.T, doc *Doc, lines int) {
	var starts []int
	var collect func(n *yaml.Node, depth int)
	collect = func(n *yaml.Node, depth int) {
		if n == nil || depth > MaxDepth {
			return
		}
		starts = append(starts, n.Line)
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			for _, c := range n.Content {
				collect(c, depth+1)
			}
		}
	}
	collect(doc.Root(), 0)
	slices.Sort(starts)
	last := 0
	for _, s := range doc.Strings {
		if s.Line < 1 || s.Line > lines+1 || s.Line < last {
			t.Fatalf("string %q on line %d (of %d) after one on line %d", s.Value, s.Line, lines, last)
		}
		last = s.Line
		want := 0
		if k, _ := slices.BinarySearch(starts, s.Line+1); k < len(starts) {
			want = starts[k]
		}
		if s.NextLine != want {
			t.Fatalf("string %q on line %d: next node on line %d, sorting the nodes says %d", s.Value, s.Line, s.NextLine, want)
		}
	}
}

// walkLines resolves the line of every path into v and checks it is a
// line of the document.
func walkLines(t *testing.T, doc *Doc, path []string, v any, lines int, budget *int) {
	if *budget--; *budget < 0 {
		return
	}
	for _, l := range []int{doc.Line(path...), doc.KeyLine(path...)} {
		if l < 1 || l > lines+1 {
			t.Fatalf("path %q is on line %d of %d", path, l, lines)
		}
	}
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			walkLines(t, doc, append(path[:len(path):len(path)], k), x, lines, budget)
		}
	case []any:
		for i, x := range v {
			walkLines(t, doc, append(path[:len(path):len(path)], strconv.Itoa(i)), x, lines, budget)
		}
	}
}

// FuzzAppendProof is the differential test of the append proof: whenever
// FindSequenceEnd accepts a document it decodes to the sequence it
// describes, and whenever ProveAppend accepts an append, decoding both
// versions in full agrees with it (checkAppend), for the first append and
// for a second one proved from the end the first returned.
func FuzzAppendProof(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"))
	f.Fuzz(func(t *testing.T, in []byte) {
		old, tail := appendCase(in)
		end := FindSequenceEnd(old, "entries")
		if end != nil {
			if err := checkEnd(old, "entries", end); err != nil {
				t.Fatalf("%v\nold: %q", err, old)
			}
		}
		// Reading in two parts, cut anywhere, is reading in one.
		one := findSequenceEnd(old, "entries", -1)
		for split := 0; split <= len(old); split++ {
			if split > 0 && old[split-1] != '\n' {
				continue
			}
			if two := findSequenceEnd(old, "entries", split); !reflect.DeepEqual(two, one) {
				t.Fatalf("cut at %d: %+v, in one reading %+v\nold: %q", split, two, one, old)
			}
		}
		new := append(old[:len(old):len(old)], tail...)
		app := ProveAppend(end, old, new)
		if app == nil {
			return
		}
		if err := checkAppend(old, new, "entries", app); err != nil {
			t.Fatalf("%v\nold:  %q\ntail: %q", err, old, tail)
		}
		newer := append(new[:len(new):len(new)], tail...)
		if again := ProveAppend(app.End, new, newer); again != nil {
			if err := checkAppend(new, newer, "entries", again); err != nil {
				t.Fatalf("second append: %v\nold:  %q\ntail: %q", err, old, tail)
			}
		}
	})
}

func FuzzSplitFrontmatter(f *testing.F) {
	for _, s := range []string{"---\na: 1\n---\nbody\n", "---\r\na: 1\r\n---\r\n", "\xef\xbb\xbf---\n---\n", "---\n", "no\n", "---\na\n---\n---\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fm, err := SplitFrontmatter(data)
		if err != nil {
			if !errors.Is(err, ErrNoFrontmatter) && !errors.Is(err, ErrUnclosedFrontmatter) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if len(fm.YAML)+len(fm.Body) > len(data) || fm.BodyLine < 2 {
			t.Fatalf("split %+v of %q", fm, data)
		}
	})
}
