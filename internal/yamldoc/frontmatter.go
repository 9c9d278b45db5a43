package yamldoc

import (
	"bytes"
	"errors"
)

// ErrNoFrontmatter means the file does not start with a "---" line.
var ErrNoFrontmatter = errors.New("no YAML frontmatter: the file must start with a line '---'")

// ErrUnclosedFrontmatter means no closing "---" line follows the opening one.
var ErrUnclosedFrontmatter = errors.New("the frontmatter is not closed: no line '---' after the opening one")

// Frontmatter is a Markdown file split at its YAML frontmatter.
type Frontmatter struct {
	// YAML is the text between the opening and the closing "---" lines.
	YAML []byte
	// Line is the file line on which YAML starts (2, or 2 after a BOM).
	Line int
	// Body is everything after the closing "---" line.
	Body []byte
	// BodyLine is the file line on which Body starts.
	BodyLine int
}

// SplitFrontmatter splits data at the first line "---" and the next line
// "---" (CRLF and a UTF-8 BOM accepted). The body may hold further "---"
// lines: only the first closing one ends the frontmatter.
func SplitFrontmatter(data []byte) (*Frontmatter, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	first, rest, found := cutLine(data)
	if !isFence(first) {
		return nil, ErrNoFrontmatter
	}
	if !found {
		return nil, ErrUnclosedFrontmatter
	}
	yamlStart := rest
	line := 2
	for len(rest) > 0 {
		l, after, _ := cutLine(rest)
		if isFence(l) {
			yml := yamlStart[:len(yamlStart)-len(rest)]
			return &Frontmatter{YAML: yml, Line: 2, Body: after, BodyLine: line + 1}, nil
		}
		rest = after
		line++
	}
	return nil, ErrUnclosedFrontmatter
}

func cutLine(data []byte) (line, rest []byte, found bool) {
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return data, nil, false
	}
	return data[:i], data[i+1:], true
}

func isFence(line []byte) bool {
	line = bytes.TrimSuffix(line, []byte("\r"))
	return string(bytes.TrimRight(line, " \t")) == "---"
}
