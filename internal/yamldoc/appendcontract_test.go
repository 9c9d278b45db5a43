package yamldoc

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
	"testing"
)

// checkAppend checks ProveAppend's contract for an accepted append: old
// and new decode to mappings that agree on every key but key, new's
// sequence is old's followed by the returned items, the items and the
// previous item carry the lines of the whole file, and the new end is the
// one FindSequenceEnd finds in new.
func checkAppend(old, new []byte, key string, app *Append) error {
	o, err := Decode(old)
	if err != nil {
		return fmt.Errorf("the old document does not decode: %v", err)
	}
	n, err := Decode(new)
	if err != nil {
		return fmt.Errorf("the new document does not decode: %v", err)
	}
	om, ok1 := o.Value.(map[string]any)
	nm, ok2 := n.Value.(map[string]any)
	if !ok1 || !ok2 {
		return fmt.Errorf("not mappings: %T, %T", o.Value, n.Value)
	}
	if len(om) != len(nm) {
		return fmt.Errorf("%d keys became %d", len(om), len(nm))
	}
	for k, ov := range om {
		if nv, ok := nm[k]; !ok || k != key && !Equal(ov, nv) {
			return fmt.Errorf("key %q changed", k)
		}
	}
	olds, ok1 := om[key].([]any)
	news, ok2 := nm[key].([]any)
	items, ok3 := app.Items.Value.([]any)
	if !ok1 || !ok2 || !ok3 {
		return fmt.Errorf("not sequences: %T, %T, %T", om[key], nm[key], app.Items.Value)
	}
	if len(olds) == 0 || len(news) != len(olds)+len(items) {
		return fmt.Errorf("%d old items and %d appended, but %d new ones", len(olds), len(items), len(news))
	}
	if app.First != len(olds) {
		return fmt.Errorf("the first appended item is said to be at %d, but it is at %d", app.First, len(olds))
	}
	for i, v := range olds {
		if !Equal(v, news[i]) {
			return fmt.Errorf("old item %d changed", i)
		}
	}
	for i, v := range items {
		if !Equal(v, news[len(olds)+i]) {
			return fmt.Errorf("appended item %d is not the new document's item %d", i, len(olds)+i)
		}
		if err := sameLines(app.Items, []string{strconv.Itoa(i)}, n, []string{key, strconv.Itoa(len(olds) + i)}, v); err != nil {
			return err
		}
	}
	last := len(olds) - 1
	if !Equal(app.Previous.Value, olds[last]) {
		return fmt.Errorf("the previous item is not the old document's last")
	}
	if err := sameLines(app.Previous, nil, o, []string{key, strconv.Itoa(last)}, olds[last]); err != nil {
		return err
	}
	if want := FindSequenceEnd(new, key); !reflect.DeepEqual(want, app.End) {
		return fmt.Errorf("the new end is %+v, FindSequenceEnd says %+v", app.End, want)
	}
	return nil
}

// sameLines checks that a value and each of its mapping keys has the same
// line in both documents.
func sameLines(a *Doc, pa []string, b *Doc, pb []string, v any) error {
	if la, lb := a.Line(pa...), b.Line(pb...); la != lb {
		return fmt.Errorf("%v is on line %d, in the whole file on line %d", pb, la, lb)
	}
	m, _ := v.(map[string]any)
	for k := range m {
		if la, lb := a.KeyLine(append(pa, k)...), b.KeyLine(append(pb, k)...); la != lb {
			return fmt.Errorf("key %q of %v is on line %d, in the whole file on line %d", k, pb, la, lb)
		}
	}
	return nil
}

// checkEnd checks what FindSequenceEnd promises on its own: the document
// decodes to a mapping whose key holds a non-empty sequence, and the end's
// last item, decoded on its own, is that sequence's last item.
func checkEnd(data []byte, key string, end *SequenceEnd) error {
	doc, err := Decode(data)
	if err != nil {
		return fmt.Errorf("FindSequenceEnd accepted a document that does not decode: %v", err)
	}
	m, ok := doc.Value.(map[string]any)
	if !ok {
		return fmt.Errorf("FindSequenceEnd accepted a %T", doc.Value)
	}
	list, ok := m[key].([]any)
	if !ok || len(list) == 0 {
		return fmt.Errorf("FindSequenceEnd accepted %q holding %T", key, m[key])
	}
	if lines := bytes.Count(data, []byte("\n")); lines != end.lines {
		return fmt.Errorf("%d lines, the end says %d", lines, end.lines)
	}
	prev := previousItem(data, end)
	if prev == nil || !Equal(prev.Value, list[len(list)-1]) {
		return fmt.Errorf("the end's last item is not the sequence's last item")
	}
	return sameLines(prev, nil, doc, []string{key, strconv.Itoa(len(list) - 1)}, list[len(list)-1])
}

// TestReadingInTwoPartsIsReadingInOne cuts documents at every line, the
// reference progress file included, and compares with one reading: the
// cases where the line after the cut could be read otherwise (a block
// scalar header or content before it, an empty key or item, a top-level
// key after the sequence, an indentless sequence, deeper sequences) give
// the same verdict either way.
func TestReadingInTwoPartsIsReadingInOne(t *testing.T) {
	docs := []string{
		"a: 1\nentries:\n    - x: 1\n      y: |\n        text\n    - x: 2\n      y: |\n    - x: 3\n",
		"entries:\n- a: 1\n- b: |\n  - not an item\n- c\n",
		"entries:\n  - a:\n  - b:\n      - c\n      - d\n  -\n  - e\n",
		"entries:\n  - a: 1\n  - b: 2\nother: 3\n",
		"entries:\n  - a: 1\n  - b: 2\nentries: 3\n",
		"entries:\n  - a: 1\n    b: >\n      folded\n\n      more\n  - c: 2\n",
		"entries:\n  - - a\n    - b\n  - - c\n",
		"entries:\n  - a: 1\n  -   b: 2\n  - c: 3\n",
		"entries:\n  - a: 1\n\t- b: 2\n  - c: 3\n",
	}
	ref := readReferenceProgress(t)
	for _, doc := range append(docs, string(ref)) {
		data := []byte(doc)
		one := findSequenceEnd(data, "entries", -1)
		step := 1
		if len(data) > 10000 {
			step = len(data) / 97
		}
		for split := 0; split <= len(data); split += step {
			if two := findSequenceEnd(data, "entries", split); !reflect.DeepEqual(two, one) {
				t.Fatalf("cut from %d: %+v, in one reading %+v\ndoc: %q", split, two, one, doc[:min(len(doc), 300)])
			}
		}
	}
	if findSequenceEnd(ref, "entries", len(ref)/2) == nil {
		t.Fatal("the reference progress file is refused")
	}
}
