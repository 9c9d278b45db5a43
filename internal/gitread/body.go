package gitread

// hugeBody is the size from which an object's content buffer is asked to
// be backed by huge pages (see newBody).
const hugeBody = 4 << 20

// newBody returns a zeroed buffer for n bytes of an object's content,
// which the caller fills at once (inflating, or applying a delta). A
// large one is fresh memory, touched first by that filling: taken from
// the kernel 4 KiB at a time, a 28 MB object costs 7,000 page faults, and
// on the virtual machines CI runs on those cost more than inflating the
// object. Where the kernel offers them, it is backed by huge pages
// (2 MiB each) instead; adviseHuge is a no-op elsewhere.
func newBody(n int) []byte {
	b := make([]byte, n)
	if n >= hugeBody {
		adviseHuge(b)
	}
	return b
}
