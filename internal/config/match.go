package config

import "github.com/small-hook/small-hook/internal/glob"

// Match reports whether s matches the glob pattern, in which `*` stands for
// any run of characters and `?` for one character; every other character,
// brackets included, stands for itself (so "*[bot]" matches "renovate[bot]").
func Match(pattern, s string) bool {
	return glob.Match([]rune(pattern), []rune(s))
}
