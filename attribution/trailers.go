package attribution

import (
	"strings"
)

// Trailer is one `Key: value` trailer of a commit message.
type Trailer struct {
	Key   string
	Value string
}

// scissors is the line below which `git commit -v` puts the diff.
const scissors = "# ------------------------ >8 ------------------------"

// ParseTrailers returns the trailers of a commit message the way git
// finds them (git interpret-trailers): after git's default clean-up
// (comment lines and everything below the scissors line removed), the
// trailers are the last paragraph, when that paragraph follows a blank line
// and is made only of trailers — or holds a git-generated one
// (Signed-off-by, "(cherry picked from commit") and at least 25% trailers.
// A value continues on following lines that start with white space.
func ParseTrailers(message string) []Trailer {
	lines := cleanup(message)
	end := len(lines)
	for i, l := range lines {
		if strings.HasPrefix(l, "---") && (len(l) == 3 || l[3] == ' ') {
			end = i
			break
		}
	}
	for end > 0 && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	start := end
	for start > 0 && strings.TrimSpace(lines[start-1]) != "" {
		start--
	}
	if start == 0 || start == end {
		return nil // the only paragraph is the subject, or there is none
	}
	var trailers []Trailer
	total, generated, others := 0, false, 0
	afterTrailer := false
	for _, l := range lines[start:end] {
		if (l[0] == ' ' || l[0] == '\t') && afterTrailer {
			trailers[len(trailers)-1].Value += " " + strings.TrimSpace(l)
			continue
		}
		total++
		key, value, ok := splitTrailer(l)
		afterTrailer = ok
		if !ok {
			others++
			if strings.HasPrefix(l, "(cherry picked from commit ") {
				generated = true
			}
			continue
		}
		if strings.EqualFold(key, "Signed-off-by") {
			generated = true
		}
		trailers = append(trailers, Trailer{Key: key, Value: value})
	}
	if others > 0 && !(generated && len(trailers)*4 >= total) {
		return nil
	}
	return trailers
}

// cleanup drops comment lines and everything from the scissors line on,
// as git's default commit message clean-up does.
func cleanup(message string) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(message, "\r\n", "\n"), "\n") {
		if l == scissors {
			break
		}
		if strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, strings.TrimRight(l, " \t"))
	}
	return out
}

// splitTrailer splits a `Key: value` line; keys are letters, digits and
// dashes, and white space may stand before the colon.
func splitTrailer(l string) (key, value string, ok bool) {
	i := strings.IndexByte(l, ':')
	if i <= 0 {
		return "", "", false
	}
	key = strings.TrimRight(l[:i], " \t")
	if key == "" {
		return "", "", false
	}
	for _, r := range key {
		if !(r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return "", "", false
		}
	}
	return key, strings.TrimSpace(l[i+1:]), true
}
