package yamldoc

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// yaml.v3 does not report the line of a syntax error reliably: parser
// errors (isParserProblem) come with the parser's 0-based line, one less
// than the line they mean; errors inside a collection or a scalar name the
// line where it started, not where the problem is; on the first line no
// line is given at all, and a scanner error whose context is on the first
// line is reported one line late. syntaxError works out the line itself.

// syntaxError turns a yaml.v3 error on data into an Error at the line that
// causes it.
func syntaxError(data []byte, err error, lineOffset int) *Error {
	_, problem := splitYAMLError(err)
	line := problemLine(data, problem)
	if line > 0 {
		line += lineOffset
	}
	return &Error{Line: line, Msg: "not valid YAML: " + problem}
}

// splitYAMLError splits "yaml: line 3: did not find expected key" into
// the line yaml.v3 reported (0 when none) and the problem.
func splitYAMLError(err error) (int, string) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, found := strings.Cut(rest, ": "); found {
			if l, convErr := strconv.Atoi(n); convErr == nil {
				return l, after
			}
		}
	}
	return 0, msg
}

// isParserProblem reports the problems yaml.v3's parser (not its scanner)
// reports: their line is 0-based.
func isParserProblem(problem string) bool {
	switch problem {
	case "did not find expected <stream-start>", "did not find expected <document start>",
		"did not find expected node content", "did not find expected '-' indicator",
		"did not find expected key", "did not find expected ',' or ']'", "did not find expected ',' or '}'",
		"found undefined tag handle", "found duplicate %YAML directive", "found incompatible YAML document",
		"found duplicate %TAG directive":
		return true
	}
	return false
}

// maxSearchBytes bounds the documents in which syntaxError looks for the
// line a problem starts on by parsing prefixes (a few dozen parses of up to
// the whole document); in larger ones it names the line of the problem's
// context.
const maxSearchBytes = 4 << 20

// problemLine returns the line of data that causes problem.
func problemLine(data []byte, problem string) int {
	line := contextLine(data, problem)
	if len(data) > maxSearchBytes && line > 0 {
		return line
	}
	switch problem {
	case "could not find expected ':'", "found unexpected end of stream",
		"did not find expected ',' or ']'", "did not find expected ',' or '}'":
		// The context is the line to fix: the key without its ':', the
		// quote or bracket that is never closed.
		if line > 0 {
			return line
		}
	}
	return firstFailingLine(data, max(line, 1), problem)
}

// contextLine parses data again after an added empty first line: then no
// mark is on yaml.v3's line 0, so it always reports a line, that of the
// problem's context (the collection or scalar it was reading) or of the
// problem itself. That line, corrected for the parser's 0-based count and
// the added line, is a line of data at or before the problem.
func contextLine(data []byte, problem string) int {
	shifted := make([]byte, 0, len(data)+1)
	shifted = append(append(shifted, '\n'), data...)
	err := parseStream(shifted)
	if err == nil {
		return 0
	}
	line, p := splitYAMLError(err)
	if p != problem || line == 0 {
		return 0
	}
	if isParserProblem(p) {
		return line
	}
	return line - 1
}

// firstFailingLine returns the first line L at or after from such that
// data cut after line L already fails with problem: the line that brings
// the problem in. yaml.v3 reads tokens in order, so lines after the
// problem do not change it, and a cut before it either parses or fails
// otherwise. It parses a logarithmic number of prefixes.
func firstFailingLine(data []byte, from int, problem string) int {
	total := countLines(data)
	fails := func(line int) bool {
		err := parseStream(data[:lineEnd(data, line)])
		if err == nil {
			return false
		}
		_, p := splitYAMLError(err)
		return p == problem
	}
	lo, hi := from-1, min(from, total)
	for step := 1; hi < total && !fails(hi); step *= 2 {
		lo, hi = hi, min(total, hi+step)
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// parseStream parses data as yaml.v3 does for Decode and returns its
// first error: a problem in the first document or in a second one.
func parseStream(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for range 2 {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
	return nil
}
