//go:build !linux

package gitread

// adviseHuge does nothing: the advice is Linux's madvise(MADV_HUGEPAGE).
func adviseHuge([]byte) {}
