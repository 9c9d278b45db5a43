package push

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// ReceiveLine is one line git hands the pre-receive hook: a ref update on
// the server, ids as git writes them (ZeroID for none).
type ReceiveLine struct {
	Old, New, Ref string
}

// SendLine is one line git hands the pre-push hook: a local ref and its
// id, the ref it updates on the remote and the id the remote has there
// (ZeroID for none; LocalID is ZeroID for a deletion).
type SendLine struct {
	LocalRef, LocalID, RemoteRef, RemoteID string
}

// ReadReceive reads the pre-receive hook's standard input. A line git
// would not write is an error naming it.
func ReadReceive(in io.Reader) ([]ReceiveLine, error) {
	fields, err := readLines(in, 3, 0, 1)
	var out []ReceiveLine
	for _, f := range fields {
		out = append(out, ReceiveLine{Old: f[0], New: f[1], Ref: f[2]})
	}
	return out, err
}

// ReadSend reads the pre-push hook's standard input. A line git would not
// write is an error naming it.
func ReadSend(in io.Reader) ([]SendLine, error) {
	fields, err := readLines(in, 4, 1, 3)
	var out []SendLine
	for _, f := range fields {
		out = append(out, SendLine{LocalRef: f[0], LocalID: f[1], RemoteRef: f[2], RemoteID: f[3]})
	}
	return out, err
}

// objectID matches a full SHA-1 object id as git writes it.
var objectID = regexp.MustCompile(`^[0-9a-f]{40}$`)

// readLines reads lines of n space-separated fields; ids lists the
// fields that must be object ids.
func readLines(in io.Reader, n int, ids ...int) ([][]string, error) {
	if in == nil {
		return nil, nil
	}
	var out [][]string
	sc := bufio.NewScanner(in)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSuffix(sc.Text(), "\r")
		if text == "" {
			continue
		}
		f := strings.Split(text, " ")
		if len(f) != n {
			return nil, fmt.Errorf("line %d of standard input has %d fields, not the %d git writes: %q", line, len(f), n, text)
		}
		for _, i := range ids {
			if !objectID.MatchString(f[i]) {
				return nil, fmt.Errorf("line %d of standard input: %q is not a full object id (SHA-1 repositories only)", line, f[i])
			}
		}
		out = append(out, f)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	return out, nil
}
