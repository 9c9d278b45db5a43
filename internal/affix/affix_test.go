package affix

import (
	"bytes"
	"math/rand"
	"testing"
)

// naive returns the common prefix and suffix lengths byte by byte.
func naive(a, b []byte) (int, int) {
	p, s := 0, 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	for s < len(a) && s < len(b) && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return p, s
}

// TestAffixesAgreeWithByteByByte: on slices that share long runs at either
// end (blocks whole and cut), with one or a few bytes changed, added or
// removed anywhere, the block comparison finds what comparing byte by byte
// finds.
func TestAffixesAgreeWithByteByByte(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := range 2000 {
		a := make([]byte, rng.Intn(3*block))
		rng.Read(a)
		if i%3 == 0 {
			a = bytes.Repeat([]byte{'x'}, len(a))
		}
		b := bytes.Clone(a)
		if len(b) > 0 {
			at := rng.Intn(len(b))
			switch rng.Intn(3) {
			case 0:
				b[at]++
			case 1:
				b = append(b[:at:at], append([]byte{'y', 'z'}, a[at:]...)...)
			default:
				b = append(b[:at:at], a[at+1:]...)
			}
		}
		wantP, wantS := naive(a, b)
		if p, s := CommonPrefix(a, b), CommonSuffix(a, b); p != wantP || s != wantS {
			t.Fatalf("%d bytes: prefix %d suffix %d, want %d and %d", len(a), p, s, wantP, wantS)
		}
	}
}
