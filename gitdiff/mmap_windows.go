//go:build windows

package gitdiff

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"
)

// mapFile maps a file into memory read-only, as mmap_unix.go does with
// mmap: a pack or an index is never read whole. An empty file is nil. The
// mapping must be released with the returned function.
func mapFile(path string) ([]byte, func() error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := info.Size()
	if size == 0 {
		return nil, func() error { return nil }, nil
	}
	if size != int64(int(size)) {
		return nil, nil, fmt.Errorf("%s is too large to map", path)
	}
	h, err := syscall.CreateFileMapping(syscall.Handle(f.Fd()), nil, syscall.PAGE_READONLY, uint32(size>>32), uint32(size), nil)
	if err != nil {
		return nil, nil, fmt.Errorf("mapping %s: %w", path, err)
	}
	defer syscall.CloseHandle(h)
	addr, err := syscall.MapViewOfFile(h, syscall.FILE_MAP_READ, 0, 0, uintptr(size))
	if err != nil {
		return nil, nil, fmt.Errorf("mapping %s: %w", path, err)
	}
	// addr is the view's address, which no Go pointer holds: read it as
	// one, as the runtime's own mappings do.
	view := *(*unsafe.Pointer)(unsafe.Pointer(&addr))
	data := unsafe.Slice((*byte)(view), int(size))
	return data, func() error { return syscall.UnmapViewOfFile(addr) }, nil
}
