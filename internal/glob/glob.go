// Package glob matches the one glob syntax small-hook reads in two places:
// `*` stands for any run of elements and `?` for exactly one; every other
// element stands for itself. config matches characters (runes); signature
// matches bytes, as OpenSSH does.
package glob

// Match reports whether s matches pattern.
func Match[T byte | rune](pattern, s []T) bool {
	// star and mark remember the last `*` and where in s it matched from.
	star, mark := -1, 0
	i, j := 0, 0
	for j < len(s) {
		switch {
		case i < len(pattern) && pattern[i] == '*':
			star, mark = i, j
			i++
		case i < len(pattern) && (pattern[i] == '?' || pattern[i] == s[j]):
			i++
			j++
		case star >= 0:
			i = star + 1
			mark++
			j = mark
		default:
			return false
		}
	}
	for i < len(pattern) && pattern[i] == '*' {
		i++
	}
	return i == len(pattern)
}
