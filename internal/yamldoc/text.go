package yamldoc

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// YAML breaks lines at more than "\n": yaml.v3 also ends a line at "\r"
// ("\r\n" is one break), U+0085 (NEL), U+2028 (LS) and U+2029 (PS), and
// counts lines accordingly. Every line number this package computes from
// text counts the same way, so it agrees with the lines of yaml.v3's nodes.

// breakAt returns the length of the line break at data[i], or 0 when
// there is none.
func breakAt(data []byte, i int) int {
	switch data[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < len(data) && data[i+1] == '\n' {
			return 2
		}
		return 1
	case 0xC2:
		if i+1 < len(data) && data[i+1] == 0x85 {
			return 2
		}
	case 0xE2:
		if i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xA8 || data[i+2] == 0xA9) {
			return 3
		}
	}
	return 0
}

// lineAt returns the line (1-based) that holds data[offset].
func lineAt(data []byte, offset int) int {
	line := 1
	for i := 0; i < offset; {
		if n := breakAt(data, i); n > 0 {
			line++
			i += n
			continue
		}
		i++
	}
	return line
}

// lineEnd returns the offset just after the break that ends line (1-based),
// or len(data) when the data has fewer lines.
func lineEnd(data []byte, line int) int {
	for i := 0; i < len(data); {
		n := breakAt(data, i)
		if n == 0 {
			i++
			continue
		}
		i += n
		if line--; line == 0 {
			return i
		}
	}
	return len(data)
}

// countLines returns how many lines data has: its breaks, plus one when
// text follows the last break.
func countLines(data []byte) int {
	lines, open := 0, false
	for i := 0; i < len(data); {
		if n := breakAt(data, i); n > 0 {
			lines++
			open = false
			i += n
			continue
		}
		open = true
		i++
	}
	if open {
		lines++
	}
	return lines
}

// checkText rejects what is not YAML text before yaml.v3 sees it: NUL
// bytes, invalid UTF-8 and the control characters yaml.v3's reader
// refuses (it would report them without a line).
func checkText(data []byte, lineOffset int) error {
	for i := 0; i < len(data); {
		if i+8 <= len(data) && printableASCII(binary.LittleEndian.Uint64(data[i:])) {
			i += 8
			continue
		}
		b := data[i]
		if b >= 0x20 && b < 0x7F || b == '\t' || b == '\n' || b == '\r' {
			i++
			continue
		}
		line := lineOffset + lineAt(data, i)
		if b == 0 {
			return &Error{Line: line, Msg: "contains a NUL byte: binary content is not YAML"}
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return &Error{Line: line, Msg: "is not valid UTF-8"}
		}
		if !yamlCharacter(r) {
			return &Error{Line: line, Msg: fmt.Sprintf("contains the control character %U, which YAML does not allow", r)}
		}
		i += size
	}
	return nil
}

// yamlCharacter reports whether yaml.v3 reads r: tab, the line breaks,
// and the printable characters of the YAML specification.
func yamlCharacter(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r', r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7E, r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD:
		return true
	}
	return r >= 0x10000 && r <= utf8.MaxRune
}
