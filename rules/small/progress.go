package small

import (
	"bytes"
	"strconv"

	"github.com/small-hook/small-hook/changes"
	"github.com/small-hook/small-hook/rules"
	"github.com/small-hook/small-hook/yamldoc"
)

// entry is one progress entry of a new progress file.
type entry struct {
	index int
	value any
	// doc and path locate the entry's node for line numbers.
	doc  *yamldoc.Doc
	path []string
}

// line is the entry's first line, or the line of one of its keys.
func (e entry) line(key ...string) int {
	if len(key) > 0 {
		return e.doc.KeyLine(append(append([]string{}, e.path...), key...)...)
	}
	return e.doc.Line(e.path...)
}

// field returns a key of the entry's mapping.
func (e entry) field(key string) (any, bool) {
	m, ok := e.value.(map[string]any)
	if !ok {
		return nil, false
	}
	v, ok := m[key]
	return v, ok
}

// name names the entry in messages: "progress entry 5 (task_id task-3)",
// or, for an appended entry whose position was not counted, "new progress
// entry (task_id task-3)".
func (e entry) name() string {
	if e.index < 0 {
		return "new progress entry (task_id " + bounded(e.taskID()) + ")"
	}
	return entryName(e.index, e.value)
}

// taskID names the entry in messages.
func (e entry) taskID() string {
	if v, ok := e.field("task_id"); ok {
		if s, ok := v.(string); ok {
			return s
		}
	}
	return "?"
}

// progressView is what the rules need of a change to progress.small.yml:
// the entries the change added and the entry just before the first of
// them. It is computed once per change.
type progressView struct {
	// appendOnly is true when the new file was proved to be the old file
	// plus new sequence items, from the bytes alone.
	appendOnly bool
	// added are the entries the change added (every entry in tree mode or
	// for a new file).
	added []entry
	// before is the last entry of the old file (fast path only): the one
	// just before added[0].
	before *entry
	// junctions are the positions of a merge result where an entry follows
	// one it follows in no parent (merges only).
	junctions []int
}

// viewProgress works out what a change to the progress file added. When
// the new file starts with the exact bytes of the old one and the rest is
// nothing but new items of the entries sequence, only that rest is
// decoded: the cost follows the size of the change, not of the history.
func viewProgress(pass *rules.Pass, ch *changes.Change) *progressView {
	key := "small/progress:" + blobHash(ch.Old) + ">" + blobHash(ch.New) + mergeKey(ch)
	return pass.Memo(key, func() any { return buildView(pass, ch) }).(*progressView)
}

// blobHash names a version in cache keys: its object id and its kind (a
// symbolic link can share an object id with a file).
func blobHash(b *changes.Blob) string {
	if b == nil {
		return "-"
	}
	return b.Hash + ":" + string(b.Kind)
}

func mergeKey(ch *changes.Change) string {
	if ch.Merge == nil {
		return ""
	}
	k := "|" + blobHash(ch.Merge.Base)
	for _, p := range ch.Merge.Parents {
		k += "," + blobHash(p)
	}
	return k
}

func buildView(pass *rules.Pass, ch *changes.Change) *progressView {
	if ch.New == nil || ch.New.Kind != changes.KindFile {
		return &progressView{}
	}
	if ch.Merge == nil && ch.Old != nil && ch.Old.Kind == changes.KindFile {
		end := pass.Memo("small/end:"+ch.Old.Hash, func() any { return findEnd(ch.Old.Data) }).(*sequenceEnd)
		if v, newEnd := appendView(ch.Old.Data, ch.New.Data, end); v != nil {
			// The next commit of a range starts from this version: it
			// need not look for where its sequence ends again.
			pass.Memo("small/end:"+ch.New.Hash, func() any { return newEnd })
			return v
		}
	}
	newFile := decode(pass, ch.New)
	newEntries := entriesOf(newFile)
	if newEntries == nil {
		return &progressView{}
	}
	var olds [][]any
	if ch.Merge != nil {
		for _, p := range ch.Merge.Parents {
			olds = append(olds, oldEntries(pass, p))
		}
	} else if ch.Old != nil {
		olds = append(olds, oldEntries(pass, ch.Old))
	}
	v := &progressView{}
	for _, i := range newPositions(olds, newEntries) {
		v.added = append(v.added, entry{index: i, value: newEntries[i], doc: newFile.doc, path: []string{"entries", strconv.Itoa(i)}})
	}
	if ch.Merge != nil {
		v.junctions = junctions(olds, newEntries)
	}
	return v
}

// newPositions lists the positions of cur that hold no entry of any of the
// earlier versions, once each earlier version's entries are aligned with
// cur in order (every position, when there is no earlier version).
func newPositions(olds [][]any, cur []any) []int {
	taken := make([]bool, len(cur))
	for _, old := range olds {
		for j, i := range align(old, cur).from {
			if i >= 0 {
				taken[j] = true
			}
		}
	}
	var out []int
	for j := range cur {
		if !taken[j] {
			out = append(out, j)
		}
	}
	return out
}

// junctions lists the positions j of a merge result where entry j follows
// an entry that it follows in no parent: where the merge joined the two
// sides, and time order must be checked.
func junctions(parents [][]any, cur []any) []int {
	adjacent := make([]bool, len(cur))
	for _, p := range parents {
		h := align(p, cur)
		for i := 1; i < len(h.match); i++ {
			if a, b := h.match[i-1], h.match[i]; a >= 0 && b == a+1 {
				adjacent[b] = true
			}
		}
	}
	var out []int
	for j := 1; j < len(cur); j++ {
		if !adjacent[j] {
			out = append(out, j)
		}
	}
	return out
}

// oldEntries decodes the entries of an old version; nil when it has none
// or cannot be decoded (that was reported when it was committed).
func oldEntries(pass *rules.Pass, b *changes.Blob) []any {
	if b == nil || b.Kind != changes.KindFile {
		return nil
	}
	return entriesOf(decode(pass, b))
}

func entriesOf(f *parsed) []any {
	if f == nil || f.err != nil {
		return nil
	}
	list, _ := f.top["entries"].([]any)
	return list
}

// sequenceEnd says where the entries sequence of a progress file ends:
// the column of its items and its last item. ok is false when the file
// does not end with that sequence.
type sequenceEnd struct {
	indent int
	last   *item
	ok     bool
}

func findEnd(data []byte) *sequenceEnd {
	indent, last, ok := lastEntriesItem(data)
	return &sequenceEnd{indent: indent, last: last, ok: ok}
}

// fastAppend is appendView for an old file whose end is not known yet.
func fastAppend(old, new []byte) *progressView {
	v, _ := appendView(old, new, findEnd(old))
	return v
}

// appendView proves from the bytes that new is old (whose sequence ends
// as end says) plus new items of the entries sequence, and decodes only
// those items. It returns nil whenever the proof does not go through; the
// caller then compares parsed values. It also returns where new's
// sequence ends.
func appendView(old, new []byte, end *sequenceEnd) (*progressView, *sequenceEnd) {
	if !end.ok || len(new) <= len(old) || !bytes.HasPrefix(new, old) || !bytes.HasSuffix(old, []byte("\n")) {
		return nil, nil
	}
	tail := new[len(old):]
	lastStart, ok := itemsAt(tail, end.indent)
	if !ok {
		return nil, nil
	}
	oldLines := bytes.Count(old, []byte("\n"))
	doc, err := yamldoc.DecodeAt(tail, oldLines)
	if err != nil {
		return nil, nil
	}
	items, ok := doc.Value.([]any)
	if !ok || len(items) == 0 {
		return nil, nil
	}
	v := &progressView{appendOnly: true}
	for i, item := range items {
		v.added = append(v.added, entry{index: -1, value: item, doc: doc, path: []string{strconv.Itoa(i)}})
	}
	prev, err := yamldoc.DecodeAt(end.last.text, end.last.line-1)
	if err != nil {
		return nil, nil
	}
	if list, ok := prev.Value.([]any); ok && len(list) == 1 {
		v.before = &entry{index: -1, value: list[0], doc: prev, path: []string{"0"}}
	}
	newEnd := &sequenceEnd{indent: end.indent, ok: true, last: &item{
		text: tail[lastStart:],
		line: oldLines + 1 + bytes.Count(tail[:lastStart], []byte("\n")),
	}}
	return v, newEnd
}

// item is the text of one sequence item and the line it starts on.
type item struct {
	text []byte
	line int
}

// lastEntriesItem checks that the old file ends with a block sequence
// that is the value of the top-level key "entries", and returns the column
// of its items and the text of its last item. It touches each line of the
// sequence once, looking only at its first characters.
func lastEntriesItem(old []byte) (indent int, last *item, ok bool) {
	// The first "entries:" line: a later one is a duplicate key, which the
	// scan below rejects as a line at column 0.
	pos := 0 // the start of the "entries:" line
	if !bytes.HasPrefix(old, []byte("entries:")) {
		key := bytes.Index(old, []byte("\nentries:"))
		if key < 0 {
			return 0, nil, false
		}
		pos = key + 1
	}
	rest := old[pos:]
	eol := bytes.IndexByte(rest, '\n')
	if eol < 0 || len(bytes.TrimRight(rest[len("entries:"):eol], " \r")) != 0 {
		return 0, nil, false
	}
	indent, start := -1, -1
	for p := pos + eol + 1; p < len(old); {
		next := bytes.IndexByte(old[p:], '\n')
		end := len(old)
		if next >= 0 {
			end = p + next + 1
		}
		line := old[p:end]
		col := 0
		for col < len(line) && line[col] == ' ' {
			col++
		}
		if col == len(line) || line[col] == '\n' || line[col] == '\r' || line[col] == '#' {
			p = end
			continue
		}
		isItem := line[col] == '-' && (col+1 == len(line) || line[col+1] == ' ' || line[col+1] == '\n' || line[col+1] == '\r')
		switch {
		case indent < 0 && !isItem:
			return 0, nil, false
		case indent < 0:
			indent = col
		case col < indent, col == indent && !isItem:
			return 0, nil, false
		}
		if col == indent {
			start = p
		}
		p = end
	}
	if start < 0 {
		return 0, nil, false
	}
	return indent, &item{text: old[start:], line: 1 + bytes.Count(old[:start], []byte("\n"))}, true
}

// splitIndent returns a line's indentation and its content without the
// line ending.
func splitIndent(line []byte) (int, []byte) {
	body := bytes.TrimRight(line, "\r\n")
	trimmed := bytes.TrimLeft(body, " ")
	return len(body) - len(trimmed), trimmed
}

// itemsAt reports whether text consists only of block-sequence items at
// column indent: it starts with "- " there, and every non-blank line is
// indented at least that far. It also returns where the last item starts.
func itemsAt(text []byte, indent int) (last int, ok bool) {
	first := true
	pos := 0
	for _, l := range bytes.SplitAfter(text, []byte("\n")) {
		start := pos
		pos += len(l)
		col, trimmed := splitIndent(l)
		if len(trimmed) == 0 {
			continue
		}
		isItem := bytes.HasPrefix(trimmed, []byte("- ")) || string(trimmed) == "-"
		switch {
		case col < indent, col == indent && !isItem:
			return 0, false
		case first && col != indent:
			return 0, false
		}
		first = false
		if col == indent {
			last = start
		}
	}
	return last, !first
}
