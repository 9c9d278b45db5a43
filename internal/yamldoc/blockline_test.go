package yamldoc

import (
	"encoding/binary"
	"testing"
)

// TestPrintableASCII checks the eight-byte test against the byte-by-byte
// one for every byte value in every position.
func TestPrintableASCII(t *testing.T) {
	base := []byte("abcdefgh")
	for pos := range 8 {
		for v := range 256 {
			word := append([]byte(nil), base...)
			word[pos] = byte(v)
			want := v >= 0x20 && v < 0x7F
			if got := printableASCII(binary.LittleEndian.Uint64(word)); got != want {
				t.Errorf("byte %#x at %d: %v, want %v", v, pos, got, want)
			}
		}
	}
}

// TestUnprintableASCII checks the per-byte masks against the byte-by-byte
// judgement for every byte value in every position, beside neighbours
// that are themselves printable, newlines, controls or high bytes (no
// carry may cross from one byte into the next).
func TestUnprintableASCII(t *testing.T) {
	for _, base := range []string{"abcdefgh", "\n\n\n\n\n\n\n\n", "\x00\x1f\x20\x7e\x7f\x80\xff\x0a", "\xff\xff\xff\xff\xff\xff\xff\xff", "\x00\x00\x00\x00\x00\x00\x00\x00"} {
		for pos := range 8 {
			for v := range 256 {
				word := []byte(base)
				word[pos] = byte(v)
				bad, newline := unprintableASCII(binary.LittleEndian.Uint64(word))
				for i, c := range word {
					wantNewline := c == '\n'
					wantBad := !wantNewline && (c < 0x20 || c >= 0x7F)
					if got := bad>>(8*i+7)&1 == 1; got != wantBad {
						t.Fatalf("word %q, byte %d: bad %v, want %v", word, i, got, wantBad)
					}
					if got := newline>>(8*i+7)&1 == 1; got != wantNewline {
						t.Fatalf("word %q, byte %d: newline %v, want %v", word, i, got, wantNewline)
					}
				}
				if bad&^0x8080808080808080 != 0 || newline&^0x8080808080808080 != 0 {
					t.Fatalf("word %q: bits beside the high ones", word)
				}
			}
		}
	}
}
