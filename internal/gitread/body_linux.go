package gitread

import "syscall"

// adviseHuge asks the kernel to back b with transparent huge pages. The
// advice is only advice: where the kernel has them off ("never" in
// /sys/kernel/mm/transparent_hugepage/enabled) or refuses, b is used as
// it is.
func adviseHuge(b []byte) {
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
