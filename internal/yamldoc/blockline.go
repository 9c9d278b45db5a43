package yamldoc

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// The line-level rules of the append proof's YAML subset (see
// FindSequenceEnd): what a key, a one-line scalar and the text of a line
// may be. Each rule only admits text that yaml.v3 reads as the scanner
// does, one line at a time.

// maxKeyLength bounds a key; yaml.v3 refuses keys over 1024 characters.
const maxKeyLength = 256

// lineEndAt finds the "\n" that ends the line starting at pos (-1 when
// there is none) and checks the line's characters on the way: ok is false
// when it holds a character the subset never allows, and tab tells
// whether it holds a tab, which only block scalar content may. Allowed
// are printable characters other than the line breaks yaml.v3 knows
// besides "\n" (U+0085, U+2028, U+2029) and the byte order mark; "\r" and
// every other control character are refused. Printable ASCII is checked
// eight bytes at a time; a word with anything else is read byte by byte.
func lineEndAt(data []byte, pos int) (end int, tab, ok bool) {
	i := pos
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		bad, newline := unprintableASCII(w)
		if newline != 0 {
			if first := bits.TrailingZeros64(newline) / 8; bad&(1<<(8*first)-1) == 0 {
				return i + first, false, true
			}
		}
		if bad != 0 {
			break
		}
	}
	return lineEndSlow(data, i, false)
}

// lineEndSlow is lineEndAt byte by byte, from i within the line; tab says
// whether the line held a tab before i.
func lineEndSlow(data []byte, i int, tab bool) (end int, tabs, ok bool) {
	for i < len(data) {
		c := data[i]
		switch {
		case c >= 0x20 && c < 0x7F:
			i++
			continue
		case c == '\n':
			return i, tab, true
		case c == '\t':
			tab = true
			i++
			continue
		case c < 0x80:
			return -1, tab, false
		}
		r, size := utf8.DecodeRune(data[i:])
		if !proofRune(r, size) {
			return -1, tab, false
		}
		i += size
	}
	return -1, tab, false
}

// unprintableASCII returns, for the eight bytes of w, a mask with the
// high bit of every byte that is not printable ASCII (0x20 to 0x7E) and
// not "\n" set, and one with the high bit of every "\n" set. Every byte
// is judged on its own: no carry crosses from one byte to the next.
func unprintableASCII(w uint64) (bad, newline uint64) {
	const ones, lows, highs = 0x0101010101010101, 0x7f7f7f7f7f7f7f7f, 0x8080808080808080
	low := w & lows
	// A byte below 0x20 keeps its high bit clear after adding 0x60 to its
	// low seven bits, and has it clear itself.
	below := ^(low + (0x80-0x20)*ones | w) & highs
	// A byte of 0x7F or more: adding one to its low seven bits reaches
	// the high bit, or it has it set.
	above := (low + ones | w) & highs
	// "\n" is the byte that xor 0x0A leaves zero.
	x := w ^ ('\n' * ones)
	newline = ^((x&lows + lows) | x) & highs
	return (below &^ newline) | above, newline
}

// printableASCII reports whether all eight bytes of w are printable ASCII
// (0x20 to 0x7E).
func printableASCII(w uint64) bool {
	bad, newline := unprintableASCII(w)
	return bad|newline == 0
}

// proofRune reports whether a non-ASCII character is printable for yaml.v3
// and no line break or byte order mark.
func proofRune(r rune, size int) bool {
	switch {
	case r == utf8.RuneError && size == 1:
		return false
	case r >= 0xA0 && r <= 0xD7FF:
		return r != 0x2028 && r != 0x2029
	case r >= 0xE000 && r <= 0xFFFD:
		return r != 0xFEFF
	}
	return r >= 0x10000 && r <= utf8.MaxRune
}

// splitKey splits "key: value" or "key:" into the key and the value (with
// leading spaces removed). Keys are plain: a letter, digit or underscore,
// then letters, digits, "_", "-" and ".", directly followed by ":".
func splitKey(text []byte) (key, value []byte, ok bool) {
	if len(text) == 0 || keyBytes[text[0]]&keyFirst == 0 {
		return nil, nil, false
	}
	i := 1
	for i < len(text) && keyBytes[text[i]]&keyRest != 0 {
		i++
	}
	if i > maxKeyLength || i == len(text) || text[i] != ':' {
		return nil, nil, false
	}
	rest := text[i+1:]
	if len(rest) > 0 && rest[0] != ' ' {
		return nil, nil, false
	}
	j := 0
	for j < len(rest) && rest[j] == ' ' {
		j++
	}
	return text[:i], rest[j:], true
}

// Classes of the bytes a key may hold.
const (
	keyFirst = 1 << iota // may start a key
	keyRest              // may follow the first byte
)

// keyBytes classifies every byte for splitKey.
var keyBytes = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
			t[c] = keyFirst | keyRest
		case c == '-', c == '.':
			t[c] = keyRest
		}
	}
	return t
}()

// blockScalarHeader reports whether value is a block scalar header the
// subset allows: "|" or ">", optionally with strip chomping "-" (no
// indentation indicator, no keep chomping, no comment).
func blockScalarHeader(value []byte) bool {
	switch string(bytes.TrimRight(value, " ")) {
	case "|", "|-", ">", ">-":
		return true
	}
	return false
}

// oneLineScalar reports whether value (the rest of a line after "key: "
// or "- ", not starting with a space) is a scalar the subset allows, all on
// this line.
func oneLineScalar(value []byte) bool {
	switch value[0] {
	case '\'':
		return singleQuoted(value)
	case '"':
		return doubleQuoted(value)
	}
	return plainScalar(value)
}

// plainScalar reports whether value is a plain scalar that yaml.v3 reads
// as exactly this text and converts without error: no indicator first,
// nothing that would end it early (": ", " #", a final ":"), and not one of
// the words yaml.v3 reads as NaN or infinity.
func plainScalar(value []byte) bool {
	switch value[0] {
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '-':
		if len(value) == 1 || value[1] == ' ' {
			return false
		}
	}
	n := len(value)
	for n > 0 && value[n-1] == ' ' {
		n--
	}
	text := value[:n]
	if text[n-1] == ':' || !endsNowhere(text) {
		return false
	}
	if n <= 5 && (text[0] == '.' || text[0] == '+' || text[0] == '-') {
		switch string(text) {
		case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
			return false
		}
	}
	return true
}

// endsNowhere reports whether text holds neither ": " nor " #", which end
// a plain scalar. Eight bytes at a time are skipped when none of them is
// a colon or a hash.
func endsNowhere(text []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(text); i += 8 {
		w := binary.LittleEndian.Uint64(text[i:])
		colon, hash := w^(':'*ones), w^('#'*ones)
		// A zero byte in colon or hash is a ':' or a '#'.
		if (colon-ones)&^colon&highs == 0 && (hash-ones)&^hash&highs == 0 {
			continue
		}
		break
	}
	for ; i < len(text); i++ {
		switch text[i] {
		case ':':
			if i+1 < len(text) && text[i+1] == ' ' {
				return false
			}
		case '#':
			if i > 0 && text[i-1] == ' ' {
				return false
			}
		}
	}
	return true
}

// singleQuoted reports whether value is a single-quoted scalar closed on
// this line, followed by nothing but spaces.
func singleQuoted(value []byte) bool {
	for i := 1; ; {
		j := bytes.IndexByte(value[i:], '\'')
		if j < 0 {
			return false
		}
		i += j
		if i+1 < len(value) && value[i+1] == '\'' {
			i += 2
			continue
		}
		return onlySpaces(value[i+1:])
	}
}

// doubleQuoted reports whether value is a double-quoted scalar closed on
// this line with only the escapes yaml.v3 knows, followed by nothing but
// spaces.
func doubleQuoted(value []byte) bool {
	for i := 1; i < len(value); i++ {
		switch value[i] {
		case '"':
			return onlySpaces(value[i+1:])
		case '\\':
			n, ok := escapeLength(value[i+1:])
			if !ok {
				return false
			}
			i += n
		}
	}
	return false
}

// escapeLength checks the escape after a backslash and returns its length.
func escapeLength(esc []byte) (int, bool) {
	if len(esc) == 0 {
		return 0, false
	}
	digits := 0
	switch esc[0] {
	case '0', 'a', 'b', 't', 'n', 'v', 'f', 'r', 'e', ' ', '"', '\'', '\\', 'N', '_', 'L', 'P':
		return 1, true
	case 'x':
		digits = 2
	case 'u':
		digits = 4
	case 'U':
		digits = 8
	default:
		return 0, false
	}
	if len(esc) < 1+digits {
		return 0, false
	}
	code := 0
	for _, c := range esc[1 : 1+digits] {
		d, ok := hexDigit(c)
		if !ok {
			return 0, false
		}
		code = code<<4 | d
	}
	if code >= 0xD800 && code <= 0xDFFF || code > utf8.MaxRune {
		return 0, false
	}
	return 1 + digits, true
}

func hexDigit(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10, true
	}
	return 0, false
}

func onlySpaces(text []byte) bool {
	return len(bytes.TrimLeft(text, " ")) == 0
}
