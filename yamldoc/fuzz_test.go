package yamldoc

import (
	"errors"
	"testing"
)

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"a: 1\n", "- x\n- y\n", "a: &x [1, 2]\nb: *x\n", "a: 1\na: 2\n", "\xef\xbb\xbfa: b\r\n",
		"t: 2026-01-01T00:00:00Z\n", "a: [\n", "<<: {a: 1}\n", "a: !!binary aGk=\n", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Decode(data)
		if err != nil {
			var ye *Error
			if !errors.As(err, &ye) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if doc.Value != nil && doc.Root == nil {
			t.Fatal("a value without a root node")
		}
		doc.Line("a", "0", "b")
		doc.KeyLine("a", "b")
		if !Equal(doc.Value, doc.Value) {
			t.Fatal("a value is not equal to itself")
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
