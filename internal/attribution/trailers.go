package attribution

import (
	"strings"
)

// Trailer is one `Key: value` trailer of a commit message.
type Trailer struct {
	Key   string
	Value string
}

// scissorsLine is the line below which `git commit -v` puts the diff; git
// drops it and everything after it.
const scissorsLine = "# ------------------------ >8 ------------------------\n"

// gitGeneratedPrefixes start lines that git writes itself; one of them lets
// a trailer block hold other lines too.
var gitGeneratedPrefixes = []string{"Signed-off-by: ", "(cherry picked from commit "}

// ParseTrailers returns the trailers of a commit message as git finds them
// in a commit (`git log --format=%(trailers:only,unfold)`, which is
// `git interpret-trailers --parse --no-divider`):
//
//   - the message ends before a scissors line and before trailing comment
//     and blank lines (and before an old-style trailing "Conflicts:" list);
//     `#` comment lines are ignored everywhere;
//   - the trailer block is the last paragraph, never the first (the
//     subject), and only when all its lines are trailers, or when it holds a
//     git-generated line (Signed-off-by, "(cherry picked from commit") and
//     at least 25% of its lines are trailers;
//   - a trailer is `Key: value` where the key is ASCII letters, digits and
//     dashes, optionally followed by blanks; a line that starts with a blank
//     continues the value of the trailer above it.
//
// A `---` line does not end a commit message (it would end an e-mail), and
// CRLF line ends are read as LF.
func ParseTrailers(message string) []Trailer {
	lines := splitLines(strings.ReplaceAll(message, "\r\n", "\n"))
	lines = lines[:endOfMessage(lines)]
	block := lines[trailerBlockStart(lines):]

	// A trailer and the continuation lines after it are one item: the
	// lines block[start:end], joined once (joining line by line would copy
	// a long folded value once per line).
	var trailers []Trailer
	for start := 0; start < len(block); {
		end := start + 1
		i := separator(block[start])
		if i >= 1 && !isComment(block[start]) {
			for end < len(block) && isSpace(block[end][0]) {
				end++
			}
			item := strings.Join(block[start:end], "")
			trailers = append(trailers, Trailer{Key: trimSpace(item[:i]), Value: unfold(item[i+1:])})
		}
		start = end
	}
	return trailers
}

// splitLines splits s into lines that keep their "\n"; the last line may
// lack it.
func splitLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// endOfMessage returns how many lines are the message proper: lines from a
// scissors line on, and a trailing run of comment lines, empty lines and
// old-style "Conflicts:" lists, are not.
func endOfMessage(lines []string) int {
	cutoff := len(lines)
	for i, l := range lines {
		if l == scissorsLine {
			cutoff = i
			break
		}
	}
	trailing, conflicts := -1, false // trailing: where the ignorable run starts
	for i, l := range lines[:cutoff] {
		switch {
		case isComment(l) || l == "\n":
			if trailing < 0 {
				trailing = i
			}
		case l == "Conflicts:\n":
			conflicts = true
			if trailing < 0 {
				trailing = i
			}
		case conflicts && l[0] == '\t':
			// a path of the "Conflicts:" list
		default:
			trailing, conflicts = -1, false
		}
	}
	if trailing >= 0 {
		return trailing
	}
	return cutoff
}

// trailerBlockStart returns the index of the first line of the trailer
// block, or len(lines) when there is none. Like git it walks up from the
// last line, counting trailer and other lines, until the blank line that
// starts the last paragraph; the first paragraph (the subject) never counts.
func trailerBlockStart(lines []string) int {
	endOfTitle := len(lines)
	for i, l := range lines {
		if isComment(l) {
			continue
		}
		if isBlank(l) {
			endOfTitle = i
			break
		}
	}
	onlySpaces, generated := true, false
	trailerLines, otherLines, continuations := 0, 0, 0
	for i := len(lines) - 1; i >= endOfTitle; i-- {
		l := lines[i]
		switch {
		case isComment(l):
			otherLines += continuations
			continuations = 0
			continue
		case isBlank(l):
			if onlySpaces {
				continue
			}
			otherLines += continuations
			if (generated && trailerLines*3 >= otherLines) || (trailerLines > 0 && otherLines == 0) {
				return i + 1
			}
			return len(lines)
		}
		onlySpaces = false
		switch {
		case hasGeneratedPrefix(l):
			trailerLines++
			continuations = 0
			generated = true
		case separator(l) >= 1:
			trailerLines++
			continuations = 0
		case isSpace(l[0]):
			continuations++
		default:
			otherLines += 1 + continuations
			continuations = 0
		}
	}
	return len(lines)
}

func hasGeneratedPrefix(l string) bool {
	for _, p := range gitGeneratedPrefixes {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// separator returns the index of the ':' that ends a trailer key at the
// start of l, or -1. The key is ASCII letters, digits and dashes; blanks
// may stand between it and the colon. (Git's find_separator; a result of 0
// means an empty key, which is no trailer.)
func separator(l string) int {
	blanks := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c == ':':
			return i
		case !blanks && (isAlnum(c) || c == '-'):
		case i > 0 && (c == ' ' || c == '\t'):
			blanks = true
		default:
			return -1
		}
	}
	return -1
}

// unfold trims a value and collapses each line break, with the blanks that
// follow it, into one space.
func unfold(v string) string {
	var b strings.Builder
	v = trimSpace(v)
	for i := 0; i < len(v); i++ {
		if v[i] != '\n' {
			b.WriteByte(v[i])
			continue
		}
		for i+1 < len(v) && isSpace(v[i+1]) {
			i++
		}
		b.WriteByte(' ')
	}
	return trimSpace(b.String())
}

func isComment(l string) bool { return l != "" && l[0] == '#' }

// isBlank reports whether a line holds only blanks.
func isBlank(l string) bool { return trimSpace(l) == "" }

// isSpace is git's isspace: space, tab, line feed and carriage return.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func trimSpace(s string) string { return strings.Trim(s, " \t\n\r") }
