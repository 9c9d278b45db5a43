//go:build !unix && !windows

package gitread

import (
	"io"
	"os"
)

// mapOpen reads the first size bytes of f whole: this system cannot map
// files.
func mapOpen(f *os.File, size int) ([]byte, func() error, error) {
	data := make([]byte, size)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
