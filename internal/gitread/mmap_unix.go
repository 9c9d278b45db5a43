//go:build unix

package gitread

import (
	"os"
	"syscall"
)

// mapOpen maps the first size bytes of f with mmap.
func mapOpen(f *os.File, size int) ([]byte, func() error, error) {
	data, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return syscall.Munmap(data) }, nil
}
