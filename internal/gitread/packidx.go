package gitread

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// packIndex is a pack's .idx file (version 2), held as read: an object is
// found by a binary search in its fan-out bucket, without decoding the
// rest. go-git decodes every entry of every index into maps before it
// reads the first packed object (about 8 ms for 50,000 objects), which a
// hook would pay for the three or four trees it reads.
type packIndex struct {
	data  []byte
	count int
	// names, offsets and large are the sections of data holding the
	// sorted object ids, their 31-bit offsets and the 64-bit offsets that
	// large ones point to.
	names, offsets, large []byte
}

// idx file layout, version 2.
const (
	idxMagic      = "\xfftOc"
	idxHeaderSize = 8
	idxFanoutSize = 256 * 4
	// idxTrailerSize is the pack's checksum and the index's own.
	idxTrailerSize = 2 * hashLen
	idxLargeOffset = 0x80000000
)

// parsePackIndex checks the layout of an index file: version 2, a
// non-decreasing fan-out table and sections that add up to the file's
// size. Version 1 (not written by git since 2008) is refused; the caller
// then reads objects through go-git.
func parsePackIndex(data []byte) (*packIndex, error) {
	if len(data) < idxHeaderSize+idxFanoutSize+idxTrailerSize || string(data[:4]) != idxMagic {
		return nil, errors.New("not a version 2 pack index")
	}
	if v := binary.BigEndian.Uint32(data[4:8]); v != 2 {
		return nil, fmt.Errorf("pack index version %d is not supported", v)
	}
	fanout := data[idxHeaderSize : idxHeaderSize+idxFanoutSize]
	prev := uint32(0)
	for i := 0; i < 256; i++ {
		n := binary.BigEndian.Uint32(fanout[4*i:])
		if n < prev {
			return nil, errors.New("pack index: fan-out table decreases")
		}
		prev = n
	}
	count := uint64(prev)
	rest := uint64(len(data) - idxHeaderSize - idxFanoutSize - idxTrailerSize)
	// As git checks: the 64-bit offsets, if any, number fewer than the
	// objects (the first object of a pack is never that far).
	if count*(hashLen+8) > rest || (rest-count*(hashLen+8))%8 != 0 || count > 0 && (rest-count*(hashLen+8))/8 > count-1 {
		return nil, errors.New("pack index: size does not match its object count")
	}
	at := idxHeaderSize + idxFanoutSize
	names := data[at : at+int(count)*hashLen]
	at += int(count) * (hashLen + 4) // names, then CRC-32s
	offsets := data[at : at+int(count)*4]
	at += int(count) * 4
	large := data[at : len(data)-idxTrailerSize]
	return &packIndex{data: data, count: int(count), names: names, offsets: offsets, large: large}, nil
}

// find returns the offset of object h in the pack.
func (p *packIndex) find(h plumbing.Hash) (offset uint64, ok bool, err error) {
	fanout := p.data[idxHeaderSize:]
	lo := 0
	if h[0] > 0 {
		lo = int(binary.BigEndian.Uint32(fanout[4*(int(h[0])-1):]))
	}
	hi := int(binary.BigEndian.Uint32(fanout[4*int(h[0]):]))
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := bytes.Compare(p.names[mid*hashLen:(mid+1)*hashLen], h[:]); {
		case c < 0:
			lo = mid + 1
		case c > 0:
			hi = mid
		default:
			return p.offset(mid)
		}
	}
	return 0, false, nil
}

// offset returns the pack offset of the i-th object.
func (p *packIndex) offset(i int) (uint64, bool, error) {
	off := binary.BigEndian.Uint32(p.offsets[4*i:])
	if off&idxLargeOffset == 0 {
		return uint64(off), true, nil
	}
	j := int(off &^ idxLargeOffset)
	if j >= len(p.large)/8 {
		return 0, false, errors.New("pack index: large offset out of range")
	}
	return binary.BigEndian.Uint64(p.large[8*j:]), true, nil
}
