//go:build windows

package gitread

import (
	"os"
	"syscall"
	"unsafe"
)

// mapOpen maps the first size bytes of f with a read-only file mapping
// and a view of it.
func mapOpen(f *os.File, size int) ([]byte, func() error, error) {
	h, err := syscall.CreateFileMapping(syscall.Handle(f.Fd()), nil, syscall.PAGE_READONLY, uint32(uint64(size)>>32), uint32(size), nil)
	if err != nil {
		return nil, nil, err
	}
	defer syscall.CloseHandle(h)
	addr, err := syscall.MapViewOfFile(h, syscall.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		return nil, nil, err
	}
	// addr is the view's address, which no Go pointer holds: read it as
	// one, as the runtime's own mappings do.
	view := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	return unsafe.Slice((*byte)(view), size), func() error { return syscall.UnmapViewOfFile(addr) }, nil
}
