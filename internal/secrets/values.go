package secrets

import (
	"bytes"
	"slices"
)

// Value is a string decoded from a file (a YAML scalar with its escapes
// and line folding resolved), to be scanned as well as the raw text it was
// written as, with the places where it stands: one for most strings,
// several for an anchored string and the aliases that repeat it, which
// are one string, scanned once however often it is repeated.
type Value struct {
	// Text is the decoded string.
	Text string
	// Places are where it stands, in the order of the file.
	Places []Place
}

// Place is where a decoded string stands.
type Place struct {
	// Key is the mapping key the string is the value of ("" for none): a
	// rule may recognise a secret only after its key, so the string is
	// scanned as "key: text".
	Key string
	// Line and EndLine are the first and last file lines the string is
	// written on there; its findings are reported at Line.
	Line, EndLine int
}

// keyReach is how far into a string that stands under several keys a
// match that starts in one of the keys is looked for: as far as the first
// window of a long line reaches (see maxLine), twice the longest of
// gitleaks' one-line patterns.
const keyReach = maxLine

// ScanValues looks for secrets in decoded values of the file at path (of
// protocol state when protocol is set, see Part). A secret is reported
// once, at the first place of the value that holds it; one that a key
// brings out, at the first place under that key.
//
// A value that stands under one key (or none) is scanned as "key: text".
// One that stands under several is scanned once as it is, and each key
// with the value's first keyReach bytes: the scan reads each string once,
// however many aliases repeat it.
func (s *Scanner) ScanValues(path, commit string, protocol bool, values []Value) ([]Finding, error) {
	joined, segs := layOut(values)
	if len(segs) == 0 {
		return nil, nil
	}
	text := newText(joined, 1)
	found, err := s.find(path, protocol, text, text.judge(nil))
	if err != nil {
		return nil, err
	}
	var out []Finding
	for _, m := range found {
		if m.start < 0 {
			continue // the path was judged with the raw text
		}
		first, last := segmentAt(segs, m.start), segmentAt(segs, m.end-1)
		if first.keyEnd > 0 && m.start >= first.start+first.keyEnd {
			continue // the value's own, found where it is scanned whole
		}
		f := Finding{RuleID: m.rule, Description: m.description, Path: path, Encoding: m.encoding,
			Line: first.at.Line, EndLine: max(first.at.EndLine, last.at.EndLine)}
		if s.keep(&f, m.secret, commit) {
			out = append(out, f)
		}
	}
	sortFindings(out)
	return slices.CompactFunc(out, func(a, b Finding) bool { return a.Fingerprint == b.Fingerprint }), nil
}

// segment is a piece of the text ScanValues scans: a value, or a key with
// the first bytes of a value that stands under several keys.
type segment struct {
	// start is where it starts in the scanned text.
	start int
	// at is the place a match that starts in it is reported at.
	at Place
	// keyEnd, for a key with the first bytes of a value, is where the key
	// and its ": " end: a match that starts after it lies in the value,
	// scanned whole in a segment of its own. 0 for a value.
	keyEnd int
}

// valueSeparator stands between segments: a line no rule's key, value or
// separator class can run across, so values are matched one at a time (a
// block rule still sees a key split over several values).
const valueSeparator = "\n" + joinSeparator

// layOut puts the segments of values one after the other (see
// ScanValues) and returns the text and where each segment starts.
func layOut(values []Value) ([]byte, []segment) {
	var b bytes.Buffer
	var segs []segment
	add := func(at Place, keyEnd int, parts ...string) {
		segs = append(segs, segment{start: b.Len(), at: at, keyEnd: keyEnd})
		for _, p := range parts {
			b.WriteString(p)
		}
		b.WriteString(valueSeparator)
	}
	for _, v := range values {
		keys := firstUnderEachKey(v.Places)
		switch {
		case len(keys) == 0:
		case len(keys) == 1 && keys[0].Key == "":
			add(keys[0], 0, v.Text)
		case len(keys) == 1:
			add(keys[0], 0, keys[0].Key, ": ", v.Text)
		default:
			add(v.Places[0], 0, v.Text)
			for _, p := range keys {
				if p.Key != "" {
					add(p, len(p.Key)+len(": "), p.Key, ": ", v.Text[:min(len(v.Text), keyReach)])
				}
			}
		}
	}
	return b.Bytes(), segs
}

// firstUnderEachKey returns, in order, the first of places under each
// key.
func firstUnderEachKey(places []Place) []Place {
	if len(places) == 1 {
		return places
	}
	var out []Place
	seen := map[string]bool{}
	for _, p := range places {
		if !seen[p.Key] {
			seen[p.Key] = true
			out = append(out, p)
		}
	}
	return out
}

// segmentAt returns the segment holding byte offset off.
func segmentAt(segs []segment, off int) segment {
	i, found := slices.BinarySearchFunc(segs, off, func(s segment, off int) int { return s.start - off })
	if !found {
		i--
	}
	return segs[max(i, 0)]
}
