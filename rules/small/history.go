package small

import (
	"strings"
	"time"

	"github.com/small-hook/small-hook/internal/yamldoc"
)

// history compares the entries of an earlier version of a progress file
// with the entries of the new version. An entry is new because of where it
// stands, not because of what it holds: an entry equal to an old one is a
// new entry when it stands where no old entry is (a replay), and an entry
// inserted before old ones is reported wherever it came from.
type history struct {
	old, cur []any
	// migrated holds, for each old entry, the timestamp `small progress
	// migrate` would write for it (nil when migrate could not run on the
	// old entries): an old entry whose only change is that timestamp is the
	// same entry.
	migrated []string
	// ties counts, for each instant, the old entries recorded at it: an
	// old timestamp may be raised by at most that many nanoseconds, as
	// releases of migrate spread entries that share an instant.
	ties map[time.Time]int
	// match[i] is the position in cur of old entry i, or -1.
	match []int
	// from[j] is the old entry at position j of cur, or -1 for a new one.
	from []int
	// eq compares entries, remembering what it compared: entries that
	// share anchors are compared once, not once per lookup.
	eq *yamldoc.Comparer
	// oldIndex and newIndex hold the entries of old and cur by value,
	// once asked for (see inEarlier and inNew).
	oldIndex, newIndex *yamldoc.Index
}

// align matches the old entries, in order, to the earliest positions of
// cur that hold them (as values, or as migrate rewrote them), looked up
// in an index of cur.
func align(old, cur []any) *history {
	h := newHistory(old, cur)
	h.alignWith(newEntryIndex(h.eq, cur))
	return h
}

// newHistory is the comparison of old with cur, before they are aligned.
func newHistory(old, cur []any) *history {
	return &history{old: old, cur: cur, migrated: migrate(old), ties: ties(old), match: make([]int, len(old)), from: make([]int, len(cur)), eq: yamldoc.NewComparer()}
}

// alignWith aligns the entries with what x offers for each old entry; an
// offer that is not the same entry (two values whose sums agree) has the
// entries from there looked at one by one.
func (h *history) alignWith(x *entryIndex) {
	for j := range h.from {
		h.from[j] = -1
	}
	next := 0
	for i := range h.old {
		h.match[i] = -1
		j := x.candidate(h, i, next)
		if j >= 0 && !h.same(i, j) {
			j = h.scan(i, next)
		}
		if j >= 0 {
			h.match[i], h.from[j], next = j, i, j+1
		}
	}
}

// scan returns the first position of cur from next on that holds old
// entry i, or -1.
func (h *history) scan(i, next int) int {
	for j := next; j < len(h.cur); j++ {
		if h.same(i, j) {
			return j
		}
	}
	return -1
}

// same reports whether cur[j] is old entry i: equal as a value, or equal
// but for a timestamp that records the same time (see sameTime).
func (h *history) same(i, j int) bool {
	if h.eq.Equal(h.old[i], h.cur[j]) {
		return true
	}
	o, ok1 := h.old[i].(map[string]any)
	c, ok2 := h.cur[j].(map[string]any)
	if !ok1 || !ok2 || len(o) != len(c) {
		return false
	}
	for k, v := range o {
		w, ok := c[k]
		switch {
		case !ok:
			return false
		case k == "timestamp":
			if !h.sameTime(i, v, w) {
				return false
			}
		case !h.eq.Equal(v, w):
			return false
		}
	}
	return true
}

// lastMatched is the position of the last old entry found in cur, or -1.
func (h *history) lastMatched() int {
	last := -1
	for _, j := range h.match {
		last = max(last, j)
	}
	return last
}

// sameTime reports whether the new timestamp of old entry i records the
// time its old timestamp did: the same text, quoted or not (an unquoted
// timestamp is small/schema's finding, and quoting it is the fix); as
// `small progress migrate` rewrites it: exactly what the current migrate
// writes for the entry; the same instant
// written otherwise (nine fractional digits, UTC instead of an offset);
// or, for an instant several old entries share, the instant raised by no
// more nanoseconds than there are such entries (the tie-break of earlier
// releases, which spread ties from +1 ns). Nothing else: any other change
// of an old timestamp is a rewrite.
func (h *history) sameTime(i int, old, cur any) bool {
	if a, ok := timestampText(old); ok {
		if b, ok := timestampText(cur); ok && a == b {
			return true
		}
	}
	s, ok := cur.(string)
	if !ok {
		return false
	}
	if h.migrated != nil && s == h.migrated[i] {
		return true
	}
	t, err1 := parseTime(old)
	u, err2 := parseTime(cur)
	if err1 != nil || err2 != nil || u.Before(t) {
		return false
	}
	return u.Sub(t) <= time.Duration(h.ties[t])*time.Nanosecond
}

// timestampText is a timestamp as written, quoted or not.
func timestampText(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case yamldoc.Timestamp:
		return t.Text, true
	}
	return "", false
}

// parseTime reads a timestamp value as the reference CLI does.
func parseTime(v any) (time.Time, error) {
	s, _ := v.(string)
	t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
	return t.UTC(), err
}

// ties counts the entries recorded at each instant.
func ties(entries []any) map[time.Time]int {
	out := map[time.Time]int{}
	for _, e := range entries {
		m, _ := e.(map[string]any)
		if t, err := parseTime(m["timestamp"]); err == nil {
			out[t]++
		}
	}
	return out
}

// migrateFormat is how `small progress migrate` writes a timestamp: UTC
// with nine fractional digits.
const migrateFormat = "2006-01-02T15:04:05.000000000Z"

// migrate returns the timestamps `small progress migrate` writes for
// entries, or nil when it would refuse them: every timestamp is parsed as
// RFC 3339, turned to UTC, raised to one nanosecond after the previous
// entry's when it is not later, and written with nine fractional digits.
// Accepting exactly this rewrite, and nothing near it, lets a repository
// follow the reference CLI's own repair without opening a way to edit
// history.
func migrate(entries []any) []string {
	out := make([]string, len(entries))
	var last time.Time
	for i, e := range entries {
		m, _ := e.(map[string]any)
		s, ok := m["timestamp"].(string)
		if !ok {
			return nil
		}
		t, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(s))
		if err != nil {
			return nil
		}
		t = t.UTC()
		if !last.IsZero() && !t.After(last) {
			t = last.Add(time.Nanosecond)
		}
		out[i], last = t.Format(migrateFormat), t
	}
	return out
}
