package small

import (
	"strconv"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
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

// name names the entry in messages: "progress entry 5 (task_id task-3)".
func (e entry) name() string { return entryName(e.index, e.value) }

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
	// added are the entries the change added to the history (every entry
	// in tree mode or for a new file; for a merge, those no parent holds).
	added []entry
	// appended are, when appendOnly, the entries the new file's bytes add
	// to the old file's (for a merge, to the first parent's): the entries
	// the schema judges. They are added but for a merge.
	appended []entry
	// before is the last entry of the old file (fast path only): the one
	// just before appended[0].
	before *entry
	// junctions are the places of a merge result where an entry follows
	// one it follows in no parent (merges only).
	junctions []junction
}

// junction is a place of a merge result where cur follows prev, which it
// follows in no parent.
type junction struct{ prev, cur entry }

// viewProgress works out what a change to the progress file added. When
// the new file starts with the exact bytes of the old one and the rest is
// nothing but new items of the entries sequence, only that rest is
// decoded: the cost follows the size of the change, not of the history.
func viewProgress(pass *rules.Pass, ch *changes.Change) *progressView {
	return progressViews.Get(pass, ch)
}

// progressViews is the fact of what a change to a progress file added.
var progressViews = rules.ChangeFact(buildView)

func buildView(pass *rules.Pass, ch *changes.Change) *progressView {
	if ch.New == nil || ch.New.Kind != changes.KindFile {
		return &progressView{}
	}
	if ch.Merge == nil && ch.Old != nil && ch.Old.Kind == changes.KindFile {
		if app := pass.Appended(ch.Old, ch.New, "entries"); app != nil {
			return appendedView(app)
		}
	}
	if ch.Merge != nil {
		if v := mergedAppendsView(pass, ch); v != nil {
			return v
		}
		pass.YAMLFiles(append([]*changes.Blob{ch.New, ch.Merge.Base}, ch.Merge.Parents...)...)
	} else if ch.Old != nil {
		// A rewrite: both versions are decoded whole, at once.
		pass.YAMLFiles(ch.New, ch.Old)
	}
	return fullView(pass, ch)
}

// fullView is the view of a change worked out from the decoded versions:
// the new file's entries aligned with each old version's.
func fullView(pass *rules.Pass, ch *changes.Change) *progressView {
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
	at := func(i int) entry {
		return entry{index: i, value: newEntries[i], doc: newFile.doc, path: []string{"entries", strconv.Itoa(i)}}
	}
	v := &progressView{}
	for _, i := range newPositions(olds, newEntries) {
		v.added = append(v.added, at(i))
	}
	if ch.Merge != nil {
		for _, j := range junctions(olds, newEntries) {
			v.junctions = append(v.junctions, junction{prev: at(j - 1), cur: at(j)})
		}
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

// appendedView is the view of a change proved to append entries: only the
// appended entries and the one before them were decoded.
func appendedView(app *yamldoc.Append) *progressView {
	v := &progressView{appendOnly: true, before: &entry{index: app.First - 1, value: app.Previous.Value, doc: app.Previous}}
	items, _ := app.Items.Value.([]any)
	for i, item := range items {
		v.appended = append(v.appended, entry{index: app.First + i, value: item, doc: app.Items, path: []string{strconv.Itoa(i)}})
	}
	v.added = v.appended
	return v
}
