package secrets

import (
	"bytes"
	"sort"
)

// text is content being scanned, with the byte offset of each line.
type text struct {
	data []byte
	// first is the file line data starts on.
	first int
	// starts holds the byte offset of each line of data.
	starts []int
}

func newText(data []byte, first int) *text {
	starts := []int{0}
	for off := 0; ; {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 || off+i+1 >= len(data) {
			break
		}
		off += i + 1
		starts = append(starts, off)
	}
	return &text{data: data, first: first, starts: starts}
}

// lines is how many lines the text has.
func (t *text) lines() int {
	return len(t.starts)
}

// end returns the offset just after line i (0-based), newline included.
func (t *text) end(i int) int {
	if i+1 < len(t.starts) {
		return t.starts[i+1]
	}
	return len(t.data)
}

// line returns line i, newline included.
func (t *text) line(i int) []byte {
	return t.data[t.starts[i]:t.end(i)]
}

// size is the length of line i, newline included.
func (t *text) size(i int) int {
	return t.end(i) - t.starts[i]
}

// index returns the 0-based line that holds byte offset off.
func (t *text) index(off int) int {
	return sort.SearchInts(t.starts, off+1) - 1
}

// position returns the 1-based file line and byte column of offset off.
func (t *text) position(off int) (line, column int) {
	i := t.index(off)
	return t.first + i, off - t.starts[i] + 1
}

// judge returns the judged lines: lines are 1-based file lines, nil all.
func (t *text) judge(lines []int) judged {
	if lines == nil {
		return judged{first: t.first, all: true}
	}
	set := make([]bool, t.lines())
	for _, l := range lines {
		if i := l - t.first; i >= 0 && i < len(set) {
			set[i] = true
		}
	}
	j := judged{first: t.first, before: make([]int, len(set)+1)}
	for i, in := range set {
		j.before[i+1] = j.before[i]
		if in {
			j.before[i+1]++
		}
	}
	return j
}

// judged tells which lines of a text are being judged.
type judged struct {
	first int
	all   bool
	// before[i] counts the judged lines before 0-based line i.
	before []int
}

// index reports whether the line with 0-based index i is judged.
func (j judged) index(i int) bool {
	return j.all || (i >= 0 && i+1 < len(j.before) && j.before[i+1] > j.before[i])
}

// indexes lists the judged lines of a text of n lines, 0-based.
func (j judged) indexes(n int) []int {
	var out []int
	for i := range n {
		if j.index(i) {
			out = append(out, i)
		}
	}
	return out
}

// anyIn reports whether a file line from..to (inclusive) is judged.
func (j judged) anyIn(from, to int) bool {
	if j.all {
		return true
	}
	lo := min(max(from-j.first, 0), len(j.before)-1)
	hi := min(max(to-j.first+1, 0), len(j.before)-1)
	return j.before[hi] > j.before[lo]
}
