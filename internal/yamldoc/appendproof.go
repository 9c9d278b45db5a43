package yamldoc

import (
	"bytes"

	"gopkg.in/yaml.v3"
)

// SequenceEnd says where the block sequence that is the value of a
// top-level key ends, at the end of a document: the column of its items,
// and where its last item starts. It is what ProveAppend needs of the old
// version of a file, computed once by FindSequenceEnd (or returned by
// ProveAppend for the new version), and can be kept and reused: it is
// immutable and holds no reference to the document's bytes.
type SequenceEnd struct {
	key string
	// size is the length of the document it was computed from, lines its
	// number of lines and values the number of values it decodes to.
	size   int
	lines  int
	values int
	// col is the column of the items' dashes; indentless is set when
	// that is the key's own column ("entries:\n- a").
	col        int
	indentless bool
	// last is the offset of the last item's first line, lastLine its line.
	last     int
	lastLine int
	// items is the number of items of the sequence.
	items int
}

// Append is an append proved by ProveAppend.
type Append struct {
	// Items are the appended items, decoded: Items.Value is a []any, and
	// Items.Line("0", "task_id") is the file line of the first appended
	// item's task_id.
	Items *Doc
	// Previous is the last item of the old sequence, the one just before
	// Items: Previous.Value is the item itself and Previous.Line("key")
	// the file line of one of its keys.
	Previous *Doc
	// End is where the sequence of the new document ends, to prove the
	// next append from without reading the new document again.
	End *SequenceEnd
	// First is the position in the new sequence of the first appended
	// item: the number of items of the old one.
	First int
}

// FindSequenceEnd reads data once and returns where the block sequence
// that is the value of the top-level key ends, or nil when it cannot say
// for sure: the sequence must be the value of key in a top-level block
// mapping, hold at least one item and run to the end of data, and the
// whole document must lie in the subset of YAML described here. nil is no
// verdict on the document; the caller compares parsed values instead.
//
// # The subset
//
// The proof reads text line by line, and only accepts text that it reads
// exactly as yaml.v3 does, and that Decode decodes without error (within
// MaxBytes):
//
//   - UTF-8 text whose lines all end in "\n". No "\r", no other line break
//     yaml.v3 knows (U+0085, U+2028, U+2029), no byte order mark, no
//     control character; tabs only inside block scalar content.
//   - A block mapping at column 0, nested block mappings and sequences
//     indented with spaces, sequences indented or not ("key:\n- item").
//   - Every other line blank, a comment ("#" first), "key:", "key: value",
//     "-", "- value" or "- key: value" (one space after the dash).
//   - Keys: a letter, digit or "_" and then letters, digits, "_", "-" or
//     ".", right before the ":", at most 256 bytes; no duplicates.
//   - Values on one line: a plain scalar that cannot be read otherwise (no
//     indicator first, no ": ", " #" or final ":", not NaN or infinity), a
//     single-quoted scalar, a double-quoted scalar with yaml.v3's escapes,
//     nothing after the closing quote but spaces; or a block scalar header
//     "|", "|-", ">" or ">-" followed by at least one content line more
//     indented than its key or dash.
//   - No document markers or directives, flow collections, anchors,
//     aliases, tags, complex keys, comments after a value, multi-line
//     plain or quoted scalars, keep chomping or indentation indicators; at
//     most 64 levels of nesting, 256 keys in a mapping and MaxValues
//     values.
//
// What a SMALL tool writes with yaml.v3's encoder lies in this subset.
func FindSequenceEnd(data []byte, key string) *SequenceEnd {
	split := -1
	if len(data) >= minSplitScan {
		split = len(data) / 2
	}
	return findSequenceEnd(data, key, split)
}

// ProveAppend proves that new is old followed by nothing but new items of
// the sequence end describes (end must come from old, by FindSequenceEnd
// or a previous ProveAppend), and decodes only those items and the last
// old one. It returns nil when the proof does not go through; the caller
// then compares parsed values.
//
// When it returns an Append, Decode(old) and Decode(new) both succeed
// (unless new is over MaxBytes, which Decode refuses by size alone), both
// are mappings with the same keys and equal values but for end's key, and
// new's sequence is old's followed by the items of Items. Its cost is one
// comparison of old with the start of new and one reading of the appended
// text.
func ProveAppend(end *SequenceEnd, old, new []byte) *Append {
	if end == nil || len(old) != end.size || len(new) <= len(old) || !bytes.HasPrefix(new, old) {
		return nil
	}
	tail := new[len(old):]
	if !startsItem(tail, end.col) {
		return nil
	}
	s := &scanner{
		data:   tail,
		blocks: []block{{}, {col: end.col, seq: true, indentless: end.indentless}},
		seqAt:  1, floor: 1,
	}
	if !s.scan(0) || end.values+s.values > MaxValues {
		return nil
	}
	items, err := DecodeAt(tail, end.lines)
	if err != nil {
		return nil
	}
	list, ok := items.Value.([]any)
	if !ok || len(list) != s.items {
		return nil
	}
	previous := previousItem(old, end)
	if previous == nil {
		return nil
	}
	return &Append{Items: items, Previous: previous, First: end.items, End: &SequenceEnd{
		key: end.key, size: len(new), lines: end.lines + s.lines, values: end.values + s.values,
		col: end.col, indentless: end.indentless, last: len(old) + s.lastItem, lastLine: end.lines + s.lastLine,
		items: end.items + s.items,
	}}
}

// startsItem reports whether text starts with a sequence item at col.
func startsItem(text []byte, col int) bool {
	if len(text) < col+2 || text[col] != '-' || text[col+1] != ' ' && text[col+1] != '\n' {
		return false
	}
	return onlySpaces(text[:col])
}

// previousItem decodes the last item of old's sequence on its own: its
// text is one item of a block sequence at the same column.
func previousItem(old []byte, end *SequenceEnd) *Doc {
	doc, err := DecodeAt(old[end.last:], end.lastLine-1)
	if err != nil {
		return nil
	}
	list, ok := doc.Value.([]any)
	root := doc.Root()
	if !ok || len(list) != 1 || root == nil || root.Kind != yaml.SequenceNode || len(root.Content) != 1 {
		return nil
	}
	return &Doc{Value: list[0], LineOffset: doc.LineOffset, Strings: stringsOf(root.Content[0]), node: root.Content[0]}
}
