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
