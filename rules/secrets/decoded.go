package secrets

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/small-hook/small-hook/internal/changes"
	leaks "github.com/small-hook/small-hook/internal/secrets"
	"github.com/small-hook/small-hook/rules"
)

// decodedAdded returns the string scalars of a change's YAML (a *.yml or
// *.yaml file, an artifact's frontmatter) that are written at least partly
// on an added line — all of them in tree mode and for a new file. The YAML
// is only decoded when an added line could hide a value from the raw scan
// (see plainLine) or holds a credential-named key, so that an ordinary
// append costs nothing more.
func decodedAdded(pass *rules.Pass, ch changes.Change) []scalar {
	return decodedAdditions.Get(pass, unitChange{pass.Unit, &ch})
}

// unitChange is a change of a unit.
type unitChange struct {
	unit *changes.Unit
	ch   *changes.Change
}

// unitPath names a change within its unit, where paths are unique.
type unitPath struct {
	unit *changes.Unit
	path string
}

// decodedAdditions is the fact of decodedAdded: both secret rules ask for
// it, and working out whether a change is worth decoding reads every
// added line.
var decodedAdditions = rules.NewFact(
	func(c unitChange) any { return unitPath{c.unit, c.ch.Path} },
	func(pass *rules.Pass, c unitChange) []scalar { return deriveDecodedAdded(pass, *c.ch) })

// deriveDecodedAdded is decodedAdded, worked out.
func deriveDecodedAdded(pass *rules.Pass, ch changes.Change) []scalar {
	yml, offset, ok := yamlRegion(ch.Path, ch.New.Data)
	if !ok {
		return nil
	}
	var lines []int
	from, first := 0, 1
	if pass.Unit.Mode != changes.ModeTree {
		lines, from, first = addedAt(pass, ch)
	}
	last := math.MaxInt
	if len(yml) < len(ch.New.Data) {
		last = offset + bytes.Count(yml, []byte("\n")) + 1
	}
	if !worthDecoding(ch.New.Data[from:], first, lines, offset+1, last) {
		return nil
	}
	all := changedScalars(pass, ch)
	if lines == nil {
		return all
	}
	var out []scalar
	for _, s := range all {
		if touches(lines, s.line, s.end) {
			out = append(out, s)
		}
	}
	return out
}

// addedAt is addedLines, once per change: both secret rules need it.
func addedAt(pass *rules.Pass, ch changes.Change) (lines []int, from, first int) {
	a := additions.Get(pass, &ch)
	return a.lines, a.from, a.first
}

// additions is the fact of the lines a change adds.
var additions = rules.ChangeFact(func(_ *rules.Pass, ch *changes.Change) addition {
	var a addition
	a.lines, a.from, a.first = addedLines(*ch)
	return a
})

// addition is what addedLines returns.
type addition struct {
	lines       []int
	from, first int
}

// worthDecoding reports whether one of the given lines (sorted; nil: all)
// of data, which starts at line first, that lies within lines lo..hi could
// hide a value or holds a credential-named key.
func worthDecoding(data []byte, first int, lines []int, lo, hi int) bool {
	n := first
	for len(data) > 0 && n <= hi {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		for len(lines) > 0 && lines[0] < n {
			lines = lines[1:]
		}
		if lines != nil && len(lines) == 0 {
			return false
		}
		if n >= lo && (lines == nil || lines[0] == n) {
			text := strings.TrimSuffix(string(line), "\r")
			if !plainLine(text) || credentialLine(text) {
				return true
			}
		}
		n++
	}
	return false
}

// credentialLine reports whether a YAML line holds a credential-named key.
func credentialLine(line string) bool {
	s := strings.TrimLeft(strings.TrimSpace(line), "- ")
	if s == "" {
		return false
	}
	key, _, ok := splitPair(s)
	return ok && credentialName(strings.Trim(key, `"'`))
}

// touches reports whether one of the sorted lines lies in from..to.
func touches(lines []int, from, to int) bool {
	i, _ := slices.BinarySearch(lines, from)
	return i < len(lines) && lines[i] <= to
}

// spanAdded reports whether a line from..to of the new version is held by
// no old version.
func spanAdded(ch changes.Change, from, to int) bool {
	for n := from; n <= max(from, to); n++ {
		if !inOldVersion(ch, n) {
			return true
		}
	}
	return false
}

// addedDecoded scans the decoded values of a change's YAML that the raw
// scan could not see as they are (escapes, folded or block scalars,
// aliases), with their keys, and returns what the raw scan (raw) did not
// already find on their lines, once, at the value's first line. An
// anchored string and its aliases are one value that stands at several
// places: it is scanned once.
func addedDecoded(pass *rules.Pass, ch changes.Change, commit string, raw []leaks.Finding) ([]leaks.Finding, error) {
	var values []leaks.Value
	at := map[int]int{} // the index in values of each string, by scalar
	for _, s := range decodedAdded(pass, ch) {
		if s.verbatim {
			continue
		}
		i, ok := at[s.same]
		if !ok {
			i, at[s.same] = len(values), len(values)
			values = append(values, leaks.Value{Text: s.value})
		}
		values[i].Places = append(values[i].Places, leaks.Place{Key: s.key, Line: s.line, EndLine: s.end})
	}
	found, err := pass.Secrets.ScanValues(ch.Path, commit, governed(ch), values)
	if err != nil {
		return nil, fmt.Errorf("scanning the decoded values of %s for secrets: %w", ch.Path, err)
	}
	var out []leaks.Finding
	for _, f := range found {
		seen := slices.ContainsFunc(raw, func(r leaks.Finding) bool {
			return r.RuleID == f.RuleID && r.Line >= f.Line && r.Line <= f.EndLine
		})
		if !seen && (pass.Unit.Mode == changes.ModeTree || spanAdded(ch, f.Line, f.EndLine)) {
			out = append(out, f)
		}
	}
	return out, nil
}
