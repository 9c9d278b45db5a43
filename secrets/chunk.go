package secrets

import "bytes"

// chunkSize bounds the text handed to gitleaks at once: its cost grows
// with keywords per fragment, and one fragment of a 1 MB progress file
// takes seconds.
const chunkSize = 32 << 10

// chunk is text to scan and the file line it starts on.
type chunk struct {
	text string
	line int
}

// chunks cuts the selected lines of data (sorted line numbers of the file
// whose line first data starts at; nil: all) into runs of consecutive
// lines of at most chunkSize bytes (a longer single line is its own chunk).
// Each chunk starts at its own line, so gitleaks' line numbers stay right
// and lines that were not selected are never seen.
func chunks(data []byte, first int, lines []int) []chunk {
	var out []chunk
	var cur []byte
	start, prev := 0, -1
	flush := func() {
		if len(cur) > 0 {
			out = append(out, chunk{text: string(cur), line: start})
			cur = cur[:0]
		}
	}
	n, pos := first-1, 0
	for pos < len(data) {
		n++
		end := len(data)
		if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
			end = pos + i + 1
		}
		l := data[pos:end]
		pos = end
		if lines != nil {
			for len(lines) > 0 && lines[0] < n {
				lines = lines[1:]
			}
			if len(lines) == 0 {
				break
			}
			if lines[0] != n {
				continue
			}
		}
		if prev != n-1 || len(cur)+len(l) > chunkSize {
			flush()
			start = n
		}
		cur = append(cur, l...)
		prev = n
	}
	flush()
	return out
}
