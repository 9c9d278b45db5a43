package small

import (
	"fmt"
	"strings"
	"time"

	"github.com/small-hook/small-hook/internal/yamldoc"
	"github.com/small-hook/small-hook/rules"
)

func timestampRule(schema *rules.Rule) *rules.Rule {
	return &rules.Rule{
		ID:           "small/timestamp",
		Severity:     rules.Error,
		PerWorkspace: true,
		Doc: `Progress timestamps are RFC 3339 with fractional seconds and strictly increasing
Each progress entry needs a timestamp: a quoted string in RFC 3339 with fractional seconds (the small CLI writes UTC with nine digits, 2026-11-22T10:16:03.844175967Z), strictly later than the entry before it. In staged and range modes the entries the change adds are judged; with --all, every entry. A timestamp that is not a string (unquoted, a number, null) is small/schema's finding, reported here only when that rule is off. A merge that joins two sides' entries must keep them in time order: where an entry follows one it did not follow in its own branch, it must be later. A rebase cannot do that for a branch that appended entries while the branch it is rebased onto did too (its entries land after later ones, or before them as an insertion, or re-dated as a rewrite of what was pushed): the hint says to undo the rebase and merge instead.`,
		Leaves: []*rules.Rule{schema},
		Run: func(pass *rules.Pass) error {
			eachAdded(pass, func(path string, v *progressView, pos int, e entry) {
				t, problem := entryTime(e)
				if problem != "" {
					if v, ok := e.field("timestamp"); !ok || isString(v) || !pass.Reports(schema) {
						pass.Report(path, e.line("timestamp"), "%s: %s", e.name(), problem)
					}
					return
				}
				prev := previous(v, pos)
				if prev == nil {
					return
				}
				if pt, p := entryTime(*prev); p == "" && !t.After(pt) {
					hint := "entries are appended in time order"
					if rebased(pass) {
						hint += "; " + mergeInstead
					}
					pass.Report(path, e.line("timestamp"), "%s: timestamp %s is not later than the entry before it (%s)", e.name(), rules.Quote(rawTime(e)), rules.Quote(rawTime(*prev))).
						Hint("%s", hint)
				}
			})
			for _, s := range spaces(pass) {
				checkJunctions(s)
			}
			return nil
		},
	}
}

// checkJunctions reports where a merge of progress joined the two sides'
// entries out of time order.
func checkJunctions(s space) {
	ch := s.changed(Progress)
	if ch == nil || ch.New == nil || ch.Merge == nil {
		return
	}
	v := viewProgress(s.pass, ch)
	added := map[int]bool{}
	for _, e := range v.added {
		added[e.index] = true
	}
	for _, jn := range v.junctions {
		cur, prev := jn.cur, jn.prev
		if added[cur.index] {
			continue // judged as a new entry above
		}
		t, p1 := entryTime(cur)
		pt, p2 := entryTime(prev)
		if p1 == "" && p2 == "" && !t.After(pt) {
			s.pass.Report(ch.Path, cur.line("timestamp"), "%s (timestamp %s) follows %s (timestamp %s) in the merge result but is not later", cur.name(), rules.Quote(rawTime(cur)), prev.name(), rules.Quote(rawTime(prev))).
				Hint("when merging progress, keep both sides' entries in time order (every entry of each side, interleaved by timestamp)")
		}
	}
}

// isString reports whether a decoded value is a YAML string.
func isString(v any) bool {
	_, ok := v.(string)
	return ok
}

// rawTime is an entry's timestamp as written.
func rawTime(e entry) string {
	v, _ := e.field("timestamp")
	if ts, ok := v.(yamldoc.Timestamp); ok {
		return ts.Text
	}
	s, _ := v.(string)
	return s
}

// previous returns the entry just before the added entry at pos, in the
// new file.
func previous(v *progressView, pos int) *entry {
	if v.appendOnly {
		if pos > 0 {
			return &v.added[pos-1]
		}
		return v.before
	}
	e := v.added[pos]
	top, _ := e.doc.Value.(map[string]any)
	list, _ := top["entries"].([]any)
	if e.index <= 0 || e.index > len(list) {
		return nil
	}
	return &entry{index: e.index - 1, value: list[e.index-1], doc: e.doc, path: []string{"entries", fmt.Sprint(e.index - 1)}}
}

// entryTime parses an entry's timestamp, or says what is wrong with it.
func entryTime(e entry) (time.Time, string) {
	raw, ok := e.field("timestamp")
	if !ok || raw == nil {
		return time.Time{}, "timestamp is missing: add the time of the entry in RFC 3339 with fractional seconds"
	}
	if ts, ok := raw.(yamldoc.Timestamp); ok {
		return time.Time{}, fmt.Sprintf("timestamp %s is an unquoted YAML timestamp: quote it", rules.Quote(ts.Text))
	}
	s, ok := raw.(string)
	if !ok {
		return time.Time{}, fmt.Sprintf("timestamp is %s, not a string", describe(raw))
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Sprintf("timestamp %s is not RFC 3339 (like 2026-11-22T10:16:03.844175967Z)", rules.Quote(s))
	}
	if !hasFraction(s) {
		return time.Time{}, fmt.Sprintf("timestamp %s lacks fractional seconds (like 2026-11-22T10:16:03.844175967Z; `small progress migrate` adds them)", rules.Quote(s))
	}
	return t, ""
}

// hasFraction reports whether an RFC 3339 time has a fractional second.
func hasFraction(s string) bool {
	tIdx := strings.IndexAny(s, "Tt")
	return tIdx >= 0 && strings.Contains(s[tIdx:], ".")
}
