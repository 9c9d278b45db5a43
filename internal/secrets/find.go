package secrets

import (
	"cmp"
	"slices"
	"strings"

	"github.com/zricethezav/gitleaks/v8/detect"

	"github.com/small-hook/small-hook/internal/parallel"
)

// find returns the secrets in t whose matches may cover a judged line:
// the lines that hold a keyword of some rule, or whose neighbour does, or
// whose encoded text gitleaks' decoder turns into one, are scanned with
// every rule their keywords call for, and the text from each opening
// keyword of a block secret near a judged line is scanned with the block
// rules. Each secret is found once, and remembered for Redact, with the
// encoded text of a secret gitleaks decoded. A gitleaks:allow marker on
// its line does not drop it: whether the marker counts depends on who
// wrote it, which the caller judges.
func (s *Scanner) find(path string, protocol bool, t *text, j judged) ([]match, error) {
	if err := s.load(); err != nil {
		return nil, err
	}
	p := s.plan(t, j)
	var found []match
	if frags := fragments(t, p); len(frags) > 0 {
		need := map[string]bool{}
		frags = joinFragments(frags, func(fr fragment) string {
			ids := s.rulesIn(p, fr.off, fr.off+len(fr.text))
			for _, id := range ids {
				need[id] = true
			}
			return strings.Join(ids, " ")
		})
		det, err := s.detectorFor(need)
		if err != nil {
			return nil, err
		}
		found = append(found, s.detectIn(det, path, frags)...)
	}
	if regions := blockRegions(t, p.blocks, j); len(regions) > 0 {
		det, err := s.blockDetector()
		if err != nil {
			return nil, err
		}
		found = append(found, s.detectIn(det, path, regions)...)
	}
	if len(found) > 0 {
		gate, err := s.gate()
		if err != nil {
			return nil, err
		}
		if gate.skips(path, protocol) {
			return nil, nil
		}
	}
	found = preferSpecific(t, once(found))
	for _, m := range found {
		s.found.add(m.secret)
		if m.encoding != "" {
			// A message may echo the value as it is written.
			s.found.add(string(t.data[m.start:m.end]))
		}
	}
	return found, nil
}

// detectIn runs det over every fragment, in parallel (a gitleaks detector
// and Go's regular expressions are safe for concurrent use): a large new
// file is cut into many fragments, and scanning them is most of a
// history's time. The matches come back in fragment order.
func (s *Scanner) detectIn(det *detect.Detector, path string, frags []fragment) []match {
	for _, fr := range frags {
		s.scanned.Add(int64(len(fr.text)))
	}
	per := make([][]match, len(frags))
	parallel.Each(len(frags), func(i int) {
		//lint:ignore SA1019 Detect takes this type throughout gitleaks v8
		for _, f := range det.Detect(detect.Fragment{Raw: frags[i].text, FilePath: path, StartLine: 1}) {
			if m, ok := locate(frags[i], f); ok {
				per[i] = append(per[i], m)
			}
		}
	})
	return slices.Concat(per...)
}

// rulesIn lists, sorted, the rules that the keywords starting between
// offsets from and to of a planned text call for.
func (s *Scanner) rulesIn(p plan, from, to int) []string {
	var ids []string
	for k, _ := slices.BinarySearch(p.hits, from); k < len(p.hits) && p.hits[k] < to; k++ {
		for _, keyword := range p.found[p.hits[k]] {
			ids = append(ids, s.keywordRules[keyword]...)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// once keeps one match of each secret. Chunks and windows overlap, so a
// match may be found twice, or once whole and once cut short at a window's
// edge or starting inside a window: of the matches of one rule that
// overlap, the longest stays.
func once(found []match) []match {
	slices.SortFunc(found, func(a, b match) int {
		return cmp.Or(strings.Compare(a.rule, b.rule), cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end))
	})
	var out []match
	for _, m := range found {
		if n := len(out); n > 0 && out[n-1].rule == m.rule && (m.start < out[n-1].end || m.start < 0) {
			if m.end-m.start > out[n-1].end-out[n-1].start {
				out[n-1] = m
			}
			continue
		}
		out = append(out, m)
	}
	return out
}

// preferSpecific drops a generic rule's match when a specific rule's match
// on the same line holds its secret, as gitleaks does within one fragment.
func preferSpecific(t *text, found []match) []match {
	generic := func(m match) bool { return strings.Contains(strings.ToLower(m.rule), "generic") }
	specific := map[int][]string{}
	for _, m := range found {
		if !generic(m) && m.start >= 0 && m.secret != "" {
			line := t.index(m.start)
			specific[line] = append(specific[line], m.secret)
		}
	}
	var out []match
	for _, g := range found {
		if generic(g) && g.start >= 0 && g.secret != "" &&
			slices.ContainsFunc(specific[t.index(g.start)], func(s string) bool { return strings.Contains(s, g.secret) }) {
			continue
		}
		out = append(out, g)
	}
	return out
}
