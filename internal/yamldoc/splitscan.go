package yamldoc

import (
	"bytes"
	"sync"
)

// minSplitScan is the size from which FindSequenceEnd reads a document in
// two halves at once.
const minSplitScan = 512 << 10

// maxSplitSearch bounds how far past the middle of a document the line
// that starts the second half is looked for.
const maxSplitSearch = 64 << 10

// findSequenceEnd is FindSequenceEnd. With split >= 0 it reads the
// document in two parts at once, cut at the first line from byte split on
// that is an item of the followed sequence; with split < 0, or when no such
// line is near, it reads it in one.
//
// Both parts are read exactly as one reading would read them. The state of
// one reading at an item line L of the sequence is known without reading
// what comes before: every block deeper than the sequence closes at L (its
// lines are more indented), no block scalar can hold L (its content is
// more indented than the key or dash that opened it, and those lie inside
// the sequence), and the top-level mapping cannot take another key while
// the sequence runs to the end of the document. So the second part is read
// like appended items (as ProveAppend reads them): from the sequence, which
// must stay open to the end. The first part must end with the sequence
// still open at the top level and no block scalar header waiting for its
// content, which L could not be; otherwise one reading would have refused
// L too. The counts of both parts add up to those of one reading.
func findSequenceEnd(data []byte, key string, split int) *SequenceEnd {
	if key == "" || !bytes.HasSuffix(data, []byte("\n")) {
		return nil
	}
	s := &scanner{data: data, blocks: []block{{}}, seqKey: []byte(key), seqAt: -1, floor: -1, values: 1}
	var tail *scanner
	cut := len(data)
	if split >= 0 {
		pos, ok := s.scanUntil(0, func() bool { return s.seqAt == 1 && s.items > 0 })
		if !ok {
			return nil
		}
		if s.seqAt == 1 {
			if cut = itemLineFrom(data, max(split, pos), s.blocks[1].col); cut < 0 {
				cut = len(data)
			}
		}
		if cut < len(data) {
			seq := s.blocks[1]
			tail = &scanner{data: data[cut:], blocks: []block{{}, {col: seq.col, seq: true, indentless: seq.indentless}}, seqAt: 1, floor: 1}
			s.data = data[:cut]
		}
		var wg sync.WaitGroup
		tailOK := true
		if tail != nil {
			wg.Go(func() { tailOK = tail.scan(0) })
		}
		_, ok = s.scanUntil(pos, nil)
		wg.Wait()
		if !ok || !tailOK || s.open == blockHeader {
			return nil
		}
	} else if !s.scan(0) {
		return nil
	}
	if s.seqAt != 1 {
		return nil
	}
	seq := s.blocks[1]
	end := &SequenceEnd{
		key: key, size: len(data), lines: s.lines, values: s.values,
		col: seq.col, indentless: seq.indentless, last: s.lastItem, lastLine: s.lastLine, items: s.items,
	}
	if tail != nil {
		end.lines += tail.lines
		end.values += tail.values
		end.items += tail.items
		end.last, end.lastLine = cut+tail.lastItem, s.lines+tail.lastLine
	}
	if end.values > MaxValues {
		return nil
	}
	return end
}

// itemLineFrom returns the start of the first line at or after offset from
// (not the first line of data) that starts an item at column col, or -1
// when there is none within maxSplitSearch bytes.
func itemLineFrom(data []byte, from, col int) int {
	for p := from; p < len(data) && p < from+maxSplitSearch; {
		i := bytes.IndexByte(data[p:], '\n')
		if i < 0 {
			return -1
		}
		p += i + 1
		if p < len(data) && startsItem(data[p:], col) {
			return p
		}
	}
	return -1
}
