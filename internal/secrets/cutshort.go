package secrets

import "strings"

// cutMark ends every value a message echoes cut short.
const cutMark = "…"

// minCutTail is the least of a token after a rule's keyword that makes a
// word cut short the beginning of a secret.
const minCutTail = 8

// cutShort returns where text holds the beginning of a secret that a
// message cut short: a word followed by "…" (after its closing quote, if
// any) that holds, at the start of a word, the keyword of a rule for one
// kind of token (not a generic rule: ghp_, sk-ant-api03, AKIA) followed by
// at least 8 characters of a token, letters and digits among them. No
// rule matches such a prefix, and the secret may not be among those the
// run found (it was committed before, and a rule echoes the old value);
// the keyword and what follows it in the word are hidden, and remembered.
func (s *Scanner) cutShort(text string) []span {
	if !strings.Contains(text, cutMark) {
		return nil
	}
	var scanners []*Scanner
	if s.load() == nil {
		scanners = append(scanners, s)
	}
	if s.load() != nil || s.opts.Config != nil {
		scanners = append(scanners, s.fallbackScanner())
	}
	var out []span
	for off := 0; ; {
		i := strings.Index(text[off:], cutMark)
		if i < 0 {
			break
		}
		end := off + i
		off = end + len(cutMark)
		if end > 0 && (text[end-1] == '"' || text[end-1] == '\'') {
			end--
		}
		start := end
		for start > 0 && !wordBreak(text[start-1]) {
			start--
		}
		for _, sc := range scanners {
			from := sc.specificKeyword(text[start:end])
			if from < 0 {
				continue
			}
			// A piece of a secret the run knows is hidden under its
			// whole secret's preview (see known).
			if piece := text[start+from : end]; len(s.found.spans(piece)) == 0 {
				s.found.add(piece)
				out = append(out, span{start: start + from, end: end, preview: preview(piece) + " cut"})
			}
			break
		}
	}
	return out
}

// specificKeyword returns where in word the first keyword of a rule for
// one kind of token starts, at the start of a word (as the rules' \b
// wants) and followed by a token's tail to the word's end, or -1.
func (s *Scanner) specificKeyword(word string) int {
	if s.load() != nil || len(word) < minCutTail {
		return -1
	}
	lower := []byte(strings.ToLower(word))
	at := -1
	s.trie.Walk(lower, func(end, size, _ int64) bool {
		start := int(end - size + 1)
		keyword := string(lower[start : start+int(size)])
		if start > 0 && alphanumeric(word[start-1]) || !s.specific(keyword) || !tokenTail(word[start+int(size):]) {
			return true
		}
		at = start
		return false
	})
	return at
}

// specific reports whether a keyword calls for a rule that matches one
// kind of token, not a generic one.
func (s *Scanner) specific(keyword string) bool {
	for _, id := range s.keywordRules[keyword] {
		if !strings.Contains(strings.ToLower(id), "generic") {
			return true
		}
	}
	return false
}

// tokenTail reports whether tail looks like the rest of a token cut
// short: at least minCutTail characters a token is made of, letters and
// digits among them.
func tokenTail(tail string) bool {
	if len(tail) < minCutTail {
		return false
	}
	letter, digit := false, false
	for i := 0; i < len(tail); i++ {
		c := tail[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
			letter = true
		case '0' <= c && c <= '9':
			digit = true
		case c == '_', c == '-', c == '+', c == '/', c == '=':
		default:
			return false
		}
	}
	return letter && digit
}
