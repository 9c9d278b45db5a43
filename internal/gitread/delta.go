package gitread

import (
	"errors"
	"fmt"
)

// maxDeltaResult is the largest object applyDelta builds: git's default
// core.bigFileThreshold, above which git stores a blob whole rather than
// as a delta.
const maxDeltaResult = 512 << 20

// minDelta is the shortest delta git reads (DELTA_SIZE_MIN): two sizes
// and an instruction.
const minDelta = 4

// applyDelta rebuilds an object from its delta against base, in git's
// delta format: the sizes of the base and of the result as little-endian
// base-128 numbers, then instructions that copy a range of the base or
// insert bytes that follow them. Every instruction is checked against the
// base and the declared result size, and the result must have exactly that
// size: a corrupt or crafted delta is an error, never a panic or a
// misread. Memory grows with what the instructions actually write, so a
// delta that declares a huge result allocates no more than it produces,
// and no result may exceed maxDeltaResult: copies of the base let a few
// bytes of delta produce megabytes, and a chain of deltas multiplies that.
func applyDelta(base, delta []byte) ([]byte, error) {
	if len(delta) < minDelta {
		return nil, fmt.Errorf("delta: %d bytes, shorter than any git writes", len(delta))
	}
	baseSize, n := deltaSize(delta)
	if n == 0 {
		return nil, errors.New("delta: bad base size")
	}
	delta = delta[n:]
	if baseSize != uint64(len(base)) {
		return nil, fmt.Errorf("delta: made for a base of %d bytes, not %d", baseSize, len(base))
	}
	size, n := deltaSize(delta)
	if n == 0 {
		return nil, errors.New("delta: bad result size")
	}
	delta = delta[n:]
	if size > maxDeltaResult {
		return nil, fmt.Errorf("delta: declares a result of %d bytes; git does not store objects over %d MiB as deltas (core.bigFileThreshold)", size, maxDeltaResult>>20)
	}
	out := newBody(int(min(size, uint64(len(base))+uint64(len(delta)))))[:0]
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var offset, length uint64
			for i := range 7 {
				if op&(1<<i) == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, errors.New("delta: truncated copy instruction")
				}
				if i < 4 {
					offset |= uint64(delta[0]) << (8 * i)
				} else {
					length |= uint64(delta[0]) << (8 * (i - 4))
				}
				delta = delta[1:]
			}
			if length == 0 {
				length = 0x10000
			}
			if offset+length > uint64(len(base)) || uint64(len(out))+length > size {
				return nil, errors.New("delta: copy out of bounds")
			}
			out = append(out, base[offset:offset+length]...)
		case op != 0:
			length := int(op)
			if length > len(delta) || uint64(len(out)+length) > size {
				return nil, errors.New("delta: insertion out of bounds")
			}
			out = append(out, delta[:length]...)
			delta = delta[length:]
		default:
			return nil, errors.New("delta: reserved instruction 0")
		}
	}
	if uint64(len(out)) != size {
		return nil, fmt.Errorf("delta: result has %d bytes, not the %d declared", len(out), size)
	}
	return out, nil
}

// deltaSize decodes a size at the start of a delta; n is 0 when it is
// truncated or does not fit in 64 bits.
func deltaSize(data []byte) (size uint64, n int) {
	for shift := uint(0); n < len(data); shift += 7 {
		if shift > 63 {
			return 0, 0
		}
		c := data[n]
		n++
		size |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return size, n
		}
	}
	return 0, 0
}
