package gitread

import (
	"fmt"
	"os"
)

// mapFile maps a file into memory read-only, which costs a fraction of
// copying it (git maps its index and pack indexes too); where the system
// cannot map files, it is read whole (see mapOpen). The mapping must be
// released with the returned function; git replaces these files by
// renaming new ones into place, never by writing into them, so a mapping
// stays valid while git works. An empty file is nil.
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
	data, release, err := mapOpen(f, int(size))
	if err != nil {
		return nil, nil, fmt.Errorf("mapping %s: %w", path, err)
	}
	return data, release, nil
}
