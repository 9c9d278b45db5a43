package yamldoc

import "bytes"

// contentAfterEnd returns the line of the first thing after the
// document-end marker "..." that is neither blank nor a comment, or 0.
// yaml.v3 stops reading at that marker, so whatever follows it would
// otherwise go unseen; a governed file is exactly one document.
//
// It is called on a document whose first part yaml.v3 parsed, so the first
// "..." at the start of a line is that document's end: one at column 0
// cannot be inside a block scalar (its content is indented), ends a plain
// scalar, and is an error inside a quoted scalar or a flow collection.
func contentAfterEnd(data []byte) int {
	for from := 0; ; {
		i := bytes.Index(data[from:], []byte("..."))
		if i < 0 {
			return 0
		}
		i += from
		if atLineStart(data, i) && (i+3 == len(data) || isBlank(data[i+3]) || breakAt(data, i+3) > 0) {
			return firstContent(data, i+3)
		}
		from = i + 1
	}
}

// atLineStart reports whether data[i] follows a line break (or starts
// data). data is valid UTF-8, so the bytes before i cannot be the tail of
// another character.
func atLineStart(data []byte, i int) bool {
	switch {
	case i == 0, data[i-1] == '\n', data[i-1] == '\r':
		return true
	case i >= 2 && data[i-2] == 0xC2 && data[i-1] == 0x85:
		return true
	}
	return i >= 3 && data[i-3] == 0xE2 && data[i-2] == 0x80 && (data[i-1] == 0xA8 || data[i-1] == 0xA9)
}

func isBlank(b byte) bool {
	return b == ' ' || b == '\t'
}

// firstContent returns the line of the first character from data[pos]
// on that is not a blank, a line break or part of a comment, or 0.
func firstContent(data []byte, pos int) int {
	for pos < len(data) {
		switch {
		case isBlank(data[pos]):
			pos++
		case breakAt(data, pos) > 0:
			pos += breakAt(data, pos)
		case data[pos] == '#':
			for pos < len(data) && breakAt(data, pos) == 0 {
				pos++
			}
		default:
			return lineAt(data, pos)
		}
	}
	return 0
}
