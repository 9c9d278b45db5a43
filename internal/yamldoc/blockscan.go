package yamldoc

import (
	"bytes"
)

// Bounds on what the append proof follows; beyond them it declines and
// the caller compares parsed values.
const (
	// maxBlocks bounds the nesting of mappings and sequences.
	maxBlocks = 64
	// maxKeys bounds the keys of one mapping (duplicates are looked for
	// among them one by one).
	maxKeys = 256
)

// block is an open block collection: a mapping whose keys, or a sequence
// whose dashes, stand at col.
type block struct {
	col int
	seq bool
	// indentless: a sequence whose dashes stand at the column of the
	// mapping key it belongs to ("key:\n- item").
	indentless bool
	// firstKey is where a mapping's keys start in scanner.keys.
	firstKey int
	// seen has a bit set for the length and the first and last bytes of
	// each key of a mapping: a key whose bit is clear is no duplicate, and
	// only keys whose bit is set are compared with the others.
	seen uint64
}

// pending is what a line leaves open for the lines after it.
type pending int

const (
	nothing pending = iota
	// emptyKey: "key:" with no value on its line; more indented lines (or
	// an indentless sequence) make its value, otherwise it is null.
	emptyKey
	// emptyItem: "-" with no value on its line.
	emptyItem
	// blockHeader: a block scalar header; its first content line follows.
	blockHeader
	// blockContent: inside a block scalar, whose content is indented by
	// scanner.contentCol.
	blockContent
)

// scanner follows a document of the subset line by line, keeping the
// stack of open blocks: the structure yaml.v3 gives the same text. It
// allocates only when the stack or the key list grows.
type scanner struct {
	data   []byte
	blocks []block
	// keys holds the keys of the open mappings, each mapping's after its
	// parent's, as offsets into data.
	keys []keySpan
	open pending
	// openCol is the column of the key or dash that left something open.
	openCol    int
	contentCol int
	// values counts the values the document decodes to, as Decode counts
	// them (keys are not values).
	values int
	// lines counts the lines scanned.
	lines int

	// seqKey is the top-level key whose sequence is followed; seqAt is
	// the index of that sequence in blocks, or -1 while it is not open.
	seqKey []byte
	seqAt  int
	// floor is the index of a block that must stay open (-1 for none):
	// the followed sequence when scanning appended items.
	floor int
	// items counts the followed sequence's items; lastItem is the offset
	// of the last one's line and lastLine its line.
	items    int
	lastItem int
	lastLine int
}

type keySpan struct{ start, end int }

// scan reads data[from:], line by line; every line must end with "\n".
func (s *scanner) scan(from int) bool {
	_, ok := s.scanUntil(from, nil)
	return ok && s.open != blockHeader
}

// scanUntil reads data[from:] line by line until done reports true after
// a line (nil: to the end), and returns where it stopped.
func (s *scanner) scanUntil(from int, done func() bool) (int, bool) {
	pos := from
	for pos < len(s.data) {
		end, tab, ok := lineEndAt(s.data, pos)
		if !ok {
			return pos, false
		}
		s.lines++
		if !s.line(pos, end, tab) {
			return pos, false
		}
		pos = end + 1
		if done != nil && done() {
			break
		}
	}
	return pos, true
}

// line reads the line data[start:end], whose characters are allowed but
// for tabs, which only block scalar content may hold.
func (s *scanner) line(start, end int, tab bool) bool {
	text := s.data[start:end]
	col := 0
	for col < len(text) && text[col] == ' ' {
		col++
	}
	switch s.open {
	case blockHeader:
		// The first content line fixes the indentation: it must be there,
		// not blank, and deeper than the header's key or dash. yaml.v3
		// refuses a tab right after its indentation.
		if col == len(text) || col <= s.openCol || text[col] == '\t' {
			return false
		}
		s.open, s.contentCol = blockContent, col
		return true
	case blockContent:
		if col == len(text) || col >= s.contentCol {
			return true
		}
		s.open = nothing
	}
	rest := text[col:]
	switch {
	case tab:
		return false
	case len(rest) == 0, rest[0] == '#':
		return true
	case rest[0] == '-' && (len(rest) == 1 || rest[1] == ' '):
		return s.item(start, col, rest)
	}
	return s.place(start, col, false) && s.entry(start+col, col, rest)
}

// item reads a sequence item: "-", "- value" or "- key: value".
func (s *scanner) item(start, col int, rest []byte) bool {
	if !s.place(start, col, true) {
		return false
	}
	s.values++
	if onlySpaces(rest[1:]) {
		s.open, s.openCol = emptyItem, col
		return true
	}
	content := rest[2:]
	if content[0] == ' ' {
		return false
	}
	if _, _, ok := splitKey(content); ok {
		return s.push(col+2, false, false) && s.entry(start+col+2, col+2, content)
	}
	return s.value(content, col)
}

// entry reads "key: value" or "key:" at col, in the mapping on top.
func (s *scanner) entry(at, col int, text []byte) bool {
	key, value, ok := splitKey(text)
	if !ok || !s.addKey(at, len(key)) {
		return false
	}
	s.values++
	if len(value) == 0 {
		s.open, s.openCol = emptyKey, col
		return true
	}
	return s.value(value, col)
}

// value reads a value on the line of its key or dash at col.
func (s *scanner) value(value []byte, col int) bool {
	if value[0] == '|' || value[0] == '>' {
		if !blockScalarHeader(value) {
			return false
		}
		s.open, s.openCol = blockHeader, col
		return true
	}
	return oneLineScalar(value)
}

// place finds the block a key line (item false) or an item line at col
// belongs to: a block the line before left open, or an open one at
// exactly that column, after closing those the line ends.
func (s *scanner) place(start, col int, item bool) bool {
	open, openCol := s.open, s.openCol
	s.open = nothing
	switch {
	case open == emptyKey && (col > openCol || col == openCol && item):
		if !s.push(col, item, col == openCol) {
			return false
		}
	case open == emptyItem && col > openCol:
		if !s.push(col, item, false) {
			return false
		}
	default:
		for {
			top := s.blocks[len(s.blocks)-1]
			switch {
			case col > top.col:
				return false
			case col == top.col && top.seq == item:
			case col < top.col || top.indentless && !item:
				if !s.pop() {
					return false
				}
				continue
			default:
				return false
			}
			break
		}
	}
	if item && len(s.blocks)-1 == s.seqAt {
		s.items++
		s.lastItem, s.lastLine = start, s.lines
	}
	return true
}

// push opens a block at col.
func (s *scanner) push(col int, seq, indentless bool) bool {
	if len(s.blocks) >= maxBlocks {
		return false
	}
	if seq && len(s.blocks) == 1 && s.seqAt < 0 && s.seqKey != nil && s.lastKeyIs(s.seqKey) {
		s.seqAt = 1
	}
	s.blocks = append(s.blocks, block{col: col, seq: seq, indentless: indentless, firstKey: len(s.keys)})
	return true
}

// pop closes the innermost block, unless it must stay open.
func (s *scanner) pop() bool {
	top := len(s.blocks) - 1
	if top == s.floor || top == 0 {
		return false
	}
	if top == s.seqAt {
		s.seqAt = -1
	}
	s.keys = s.keys[:s.blocks[top].firstKey]
	s.blocks = s.blocks[:top]
	return true
}

// addKey records a key of the mapping on top and refuses a duplicate.
func (s *scanner) addKey(at, n int) bool {
	top := &s.blocks[len(s.blocks)-1]
	first := top.firstKey
	if len(s.keys)-first >= maxKeys {
		return false
	}
	key := s.data[at : at+n]
	bit := uint64(1) << ((uint(n) ^ uint(key[0])*7 ^ uint(key[n-1])*13) & 63)
	if top.seen&bit != 0 {
		for _, k := range s.keys[first:] {
			if bytes.Equal(s.data[k.start:k.end], key) {
				return false
			}
		}
	}
	top.seen |= bit
	s.keys = append(s.keys, keySpan{at, at + n})
	return true
}

// lastKeyIs reports whether the last key of the top-level mapping is key.
func (s *scanner) lastKeyIs(key []byte) bool {
	if len(s.blocks) != 1 || len(s.keys) == 0 {
		return false
	}
	k := s.keys[len(s.keys)-1]
	return bytes.Equal(s.data[k.start:k.end], key)
}
