// Package words holds the wording helpers that messages and reports share:
// counted nouns and abbreviated ids.
package words

import "strconv"

// Plural returns one when n is 1 and many otherwise.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count returns n followed by the noun for n: "1 file", "3 files".
func Count(n int, one, many string) string {
	return strconv.Itoa(n) + " " + Plural(n, one, many)
}

// ShortID abbreviates an id (a commit's, a replay id) to the first 12
// characters that messages show; a shorter id is returned whole.
func ShortID(id string) string {
	return id[:min(12, len(id))]
}
