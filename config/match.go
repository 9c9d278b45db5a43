package config

// Match reports whether s matches the glob pattern, in which `*` stands for
// any run of characters and `?` for one character; every other character,
// brackets included, stands for itself (so "*[bot]" matches "renovate[bot]").
func Match(pattern, s string) bool {
	p, t := []rune(pattern), []rune(s)
	// star and mark remember the last `*` and where in t it matched from.
	star, mark := -1, 0
	i, j := 0, 0
	for j < len(t) {
		switch {
		case i < len(p) && p[i] == '*':
			star, mark = i, j
			i++
		case i < len(p) && (p[i] == '?' || p[i] == t[j]):
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
	for i < len(p) && p[i] == '*' {
		i++
	}
	return i == len(p)
}
