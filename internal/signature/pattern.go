package signature

import (
	"strings"

	"github.com/small-hook/small-hook/internal/glob"
)

// maxSubpattern is the longest subpattern OpenSSH's match_pattern_list
// considers; a longer one makes the whole list match nothing.
const maxSubpattern = 1022

// matchPatternList reports whether s matches the comma-separated pattern
// list as OpenSSH's match_pattern_list does (case-sensitively): true when
// some subpattern matches and no negated (!) subpattern does. Principals
// and namespaces of an allowed-signers line are such lists.
func matchPatternList(s, list string) bool {
	positive := false
	for i := 0; i < len(list); {
		negated := list[i] == '!'
		if negated {
			i++
		}
		end := strings.IndexByte(list[i:], ',')
		if end < 0 {
			end = len(list) - i
		}
		sub := list[i : i+end]
		if len(sub) > maxSubpattern {
			return false
		}
		i += end
		if i < len(list) {
			i++ // the comma
		}
		if matchPattern(s, sub) {
			if negated {
				return false
			}
			positive = true
		}
	}
	return positive
}

// matchPattern reports whether s matches the glob pattern, in which `*`
// stands for any run of bytes and `?` for exactly one byte, as OpenSSH's
// match_pattern does: bytes, not characters, so `?` never matches a
// two-byte UTF-8 character.
func matchPattern(s, pattern string) bool {
	return glob.Match([]byte(pattern), []byte(s))
}
