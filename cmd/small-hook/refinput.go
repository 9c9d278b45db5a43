package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// objectID matches a full SHA-1 object id as git writes it.
var objectID = regexp.MustCompile(`^[0-9a-f]{40}$`)

// readRefLines reads the lines git hands a pre-push or pre-receive hook on
// standard input, each split into fields space-separated fields; ids lists
// the fields that must be object ids. A line git would not write is an
// error naming it.
func readRefLines(in io.Reader, fields int, ids ...int) ([][]string, error) {
	if in == nil {
		return nil, nil
	}
	var out [][]string
	sc := bufio.NewScanner(in)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if line == "" {
			continue
		}
		f := strings.Split(line, " ")
		if len(f) != fields {
			return nil, fmt.Errorf("line %d of standard input has %d fields, not the %d git writes: %q", n, len(f), fields, line)
		}
		for _, i := range ids {
			if !objectID.MatchString(f[i]) {
				return nil, fmt.Errorf("line %d of standard input: %q is not a full object id (SHA-1 repositories only)", n, f[i])
			}
		}
		out = append(out, f)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	return out, nil
}

// distinct returns the commits of refs, each once, in their order.
func distinct(commits []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range commits {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	return out
}
