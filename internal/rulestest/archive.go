package rulestest

import (
	"bytes"
	"strings"
)

// archive is a txtar file (the format of golang.org/x/tools/txtar): a
// comment, then files, each introduced by a line "-- name --" and holding
// every line up to the next such line.
type archive struct {
	comment string
	files   []archiveFile
}

// archiveFile is one file of an archive.
type archiveFile struct {
	name string
	data []byte
	// line is the line of the archive that names the file.
	line int
}

// parseArchive splits data into its comment and its files. A file's data
// ends with a newline, unless it is empty or ends the archive.
func parseArchive(data []byte) archive {
	var a archive
	var cur *archiveFile
	var text bytes.Buffer
	flush := func() {
		if cur == nil {
			a.comment = text.String()
		} else {
			cur.data = bytes.Clone(text.Bytes())
			a.files = append(a.files, *cur)
		}
		text.Reset()
	}
	n := 0
	for len(data) > 0 {
		n++
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		if name, ok := marker(line); ok {
			flush()
			cur = &archiveFile{name: name, line: n}
			continue
		}
		text.Write(line)
	}
	flush()
	return a
}

// marker returns the name a line "-- name --" introduces.
func marker(line []byte) (string, bool) {
	s := strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r")
	if !strings.HasPrefix(s, "-- ") || !strings.HasSuffix(s, " --") || len(s) < len("-- x --") {
		return "", false
	}
	return strings.TrimSpace(s[len("-- ") : len(s)-len(" --")]), true
}
