package gitread

import (
	"slices"

	"github.com/small-hook/small-hook/internal/workspace"
)

// contains reports whether a path, held as bytes, is in scope; it does not
// allocate.
func (s Scope) contains(path []byte) bool {
	if s.Only != nil {
		for _, p := range s.Only {
			if string(path) == p {
				return true
			}
		}
		return false
	}
	return s.All || workspace.Candidate(path) || IsPolicy(s.Policy, path)
}

// ContainsPath is contains for a path held as a string.
func (s Scope) ContainsPath(path string) bool {
	if s.Only != nil {
		return slices.Contains(s.Only, path)
	}
	return s.All || workspace.Candidate(path) || IsPolicy(s.Policy, path)
}

// IsPolicy reports whether path is one of the policy files; it does not
// allocate.
func IsPolicy[T string | []byte](policy []string, path T) bool {
	for _, p := range policy {
		if string(path) == p {
			return true
		}
	}
	return false
}
