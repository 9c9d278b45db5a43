package ledger

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/small-hook/small-hook/internal/changes"
	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules/small"
	"github.com/small-hook/small-hook/rules/smp"
)

// slot is one entry of one version of a ledger file: its value, its line
// in that version, and the commit that recorded it.
type slot struct {
	value  any
	line   int
	commit *node
	origin Origin
	// rename is the reference CLI's rewrite of the entry's task_id since
	// commit recorded it; nil for none.
	rename *rename
}

// rename is an entry's task_id rewritten by `small fix --orphan-progress`
// (small.OrphanRenames): the commit that wrote the new one, and the old.
type rename struct {
	commit *node
	from   string
}

// version is one version of a ledger file: its entries and what the next
// version needs to be compared with it. Versions are shared between the
// commits that hold the same one, and never changed once built, except
// that an entry list may grow in place (see grow).
type version struct {
	kind Kind
	// hash is the blob the version was read from.
	hash  string
	slots []slot
	// claimed is the length up to which slots' backing array is in use by
	// some version: a version whose slots end there may be extended in
	// place, since no other version sees beyond its own length.
	claimed *int
	// end is where a progress file's entries sequence ends, for the next
	// version's append proof; nil until known.
	end *yamldoc.SequenceEnd
	// doc and top are an artifact's decoded frontmatter.
	doc *yamldoc.Doc
	top map[string]any
	// err says why the version could not be read; its slots are then the
	// last readable version's, so that the next version is aligned with
	// what the history last held.
	err error
}

// readError is a version that cannot be read, at a line (0 when unknown).
type readError struct {
	line int
	msg  string
}

func (e *readError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("line %d: %s", e.line, e.msg)
	}
	return e.msg
}

// decoded is a version's entries, decoded in full, with their lines.
type decoded struct {
	values []any
	lines  []int
	doc    *yamldoc.Doc
	top    map[string]any
}

// decodeVersion reads a whole version of a ledger file.
func decodeVersion(kind Kind, b *changes.Blob) (*decoded, error) {
	if err := b.Regular(); err != nil {
		return nil, &readError{msg: err.Error()}
	}
	key, data, offset := "entries", b.Data, 0
	if kind == Provenance {
		fm, err := yamldoc.SplitFrontmatter(b.Data)
		if err != nil {
			return nil, &readError{line: 1, msg: err.Error()}
		}
		key, data, offset = "provenance", fm.YAML, fm.Line-1
	}
	doc, err := yamldoc.DecodeAt(data, offset)
	if err != nil {
		var ye *yamldoc.Error
		if errors.As(err, &ye) {
			return nil, &readError{line: ye.Line, msg: ye.Msg}
		}
		return nil, &readError{msg: err.Error()}
	}
	top, ok := doc.Value.(map[string]any)
	if !ok {
		return nil, &readError{line: doc.Line(), msg: "is not a YAML mapping"}
	}
	values, _ := top[key].([]any)
	d := &decoded{values: values, lines: make([]int, len(values)), doc: doc, top: top}
	for i := range values {
		d.lines[i] = doc.Line(key, strconv.Itoa(i))
	}
	return d, nil
}

// align returns, for each entry of cur, the position of the same entry in
// old, or -1, with the alignment of the kind's append-only rule; and, for
// progress, which entries of cur are old entries whose task_id the
// reference CLI's repair rewrote in place (small.OrphanRenames), aligned
// with the entries they were.
func align(kind Kind, old, cur []any) (from []int, renamed []bool) {
	if kind != Progress {
		return smp.Align(old, cur), nil
	}
	from = small.Align(old, cur)
	renamed = small.OrphanRenames(old, cur)
	if renamed == nil {
		return from, nil
	}
	used := make([]bool, len(old))
	for _, i := range from {
		if i >= 0 {
			used[i] = true
		}
	}
	for j, r := range renamed {
		switch {
		case !r:
		case from[j] < 0 && !used[j]:
			from[j], used[j] = j, true
		default:
			renamed[j] = false
		}
	}
	return from, renamed
}

// values returns the entries of a version.
func (v *version) values() []any {
	out := make([]any, len(v.slots))
	for i, s := range v.slots {
		out[i] = s.value
	}
	return out
}
