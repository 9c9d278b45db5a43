//go:build !unix && !windows

package gitdiff

import "os"

// mapFile reads a file whole where memory mapping is not available.
func mapFile(path string) ([]byte, func() error, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	return data, func() error { return nil }, nil
}
