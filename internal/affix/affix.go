// Package affix measures what two versions of some bytes share at their
// start and at their end, comparing blocks at a time: what a change left
// alone around what it touched.
package affix

import "bytes"

// block is how many bytes are compared at once before the bytes of the
// block that differs are compared one by one.
const block = 4096

// CommonPrefix returns the length of the longest common prefix of a and b.
func CommonPrefix(a, b []byte) int {
	n := 0
	for n+block <= len(a) && n+block <= len(b) && bytes.Equal(a[n:n+block], b[n:n+block]) {
		n += block
	}
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// CommonSuffix returns the length of the longest common suffix of a and b.
func CommonSuffix(a, b []byte) int {
	m := 0
	for m+block <= len(a) && m+block <= len(b) && bytes.Equal(a[len(a)-m-block:len(a)-m], b[len(b)-m-block:len(b)-m]) {
		m += block
	}
	for m < len(a) && m < len(b) && a[len(a)-1-m] == b[len(b)-1-m] {
		m++
	}
	return m
}
