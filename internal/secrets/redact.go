package secrets

import (
	"cmp"
	"slices"
	"strings"
	"sync"
)

const (
	// minKnown is the shortest value Redact hides wherever it occurs:
	// hiding shorter ones would garble ordinary words.
	minKnown = 8
	// pieceLen is the shortest part of a known secret that Redact hides:
	// messages may echo a value cut short.
	pieceLen = 12
	// knownBudget bounds the bytes of secrets remembered, and so the
	// index of their pieces (about one entry a byte): a file of ten
	// thousand secrets must not take hundreds of megabytes. Past it,
	// secrets are hidden where the detector recognises them again.
	knownBudget = 256 << 10
)

// Redact returns text with every secret in it replaced by a redacted
// preview ("[REDACTED AKIA…(20 chars)]"): each secret this Scanner has
// found, learned or been told to Remember, wherever it occurs and any part
// of one at least 12 bytes long, and whatever gitleaks' rules find in text
// itself, in any context (see detected). It works before anything was
// scanned, and with gitleaks' default rules when the repository's
// configuration cannot be loaded. Apply it to every message and error
// before it leaves the process.
func (s *Scanner) Redact(text string) string {
	return s.RedactAll([]string{text})[0]
}

// RedactAll redacts several texts that leave the process together: the
// secrets found in any of them are hidden in all of them, so that a text
// that holds only a part of a secret (a value cut short) is redacted
// whatever order the texts come in.
func (s *Scanner) RedactAll(texts []string) []string {
	// Findings repeat paths and messages: each text is scanned once.
	spans := map[string][]span{}
	for _, t := range texts {
		if _, ok := spans[t]; !ok {
			spans[t] = s.detected(t)
		}
	}
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = replace(t, append(slices.Clip(spans[t]), s.found.spans(t)...))
	}
	return out
}

// Learn finds the secrets in texts that may reach the output in part (a
// commit message whose trailer values are echoed cut short) and remembers
// them, so that Redact hides them and any 12-byte piece of them.
func (s *Scanner) Learn(texts ...string) {
	for _, t := range texts {
		s.detected(t)
	}
}

// Remember adds a value that Redact must hide, such as a password found
// by a rule of its own. Values shorter than 8 bytes are not remembered.
func (s *Scanner) Remember(value string) {
	s.found.add(value)
}

// detected returns where text holds a secret that gitleaks' rules find in
// it, and remembers each: the repository's rules (gitleaks' default rules
// when they cannot be loaded) and, when the repository has rules of its
// own, gitleaks' default rules as well; in the text as it stands and in
// every context a path or a message puts a secret in (see cutText); and
// the beginning of a secret a message cut short (see cutShort).
func (s *Scanner) detected(text string) []span {
	if text == "" {
		return nil
	}
	scanners := []*Scanner{s}
	switch {
	case s.load() != nil:
		scanners = []*Scanner{s.fallbackScanner()}
	case s.opts.Config != nil:
		scanners = append(scanners, s.fallbackScanner())
	}
	out := s.cutShort(text)
	for _, sc := range scanners {
		out = append(out, s.remembered(text, sc.located(text))...)
		if cut := cutText(text); cut.text != "" {
			out = append(out, s.remembered(text, cut.origin(sc.located(cut.text)))...)
		}
	}
	return out
}

// remembered remembers the secret of each span of text and returns the
// spans.
func (s *Scanner) remembered(text string, spans []span) []span {
	for _, sp := range spans {
		s.found.add(text[sp.start:sp.end])
	}
	return spans
}

// located returns where the rules find secrets in text (the whole match
// when its secret could not be located), with the default rules when the
// Scanner's own cannot be loaded.
func (s *Scanner) located(text string) []span {
	t := newText([]byte(text), 1)
	found, err := s.find("", false, t, t.judge(nil))
	if err != nil {
		if found, err = s.fallbackScanner().find("", false, t, t.judge(nil)); err != nil {
			return nil
		}
	}
	var out []span
	for _, m := range found {
		if m.start < 0 {
			continue
		}
		start, end := m.start, m.end
		if i := strings.Index(text[start:end], m.secret); m.secret != "" && i >= 0 {
			start, end = start+i, start+i+len(m.secret)
		}
		out = append(out, span{start: start, end: end, preview: preview(text[start:end])})
	}
	return out
}

// fallbackScanner returns the Scanner with gitleaks' default rules that
// redacts when the repository's configuration cannot be loaded.
func (s *Scanner) fallbackScanner() *Scanner {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fallback == nil {
		s.fallback = New(Options{})
	}
	return s.fallback
}

// span is a part of a text to hide, and what to show instead.
type span struct {
	start, end int
	preview    string
}

// replace puts "[REDACTED preview]" in place of each span (overlapping
// spans are hidden together, under the first one's preview).
func replace(text string, spans []span) string {
	if len(spans) == 0 {
		return text
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Or(cmp.Compare(a.start, b.start), cmp.Compare(b.end, a.end)) })
	var b strings.Builder
	at := 0
	for i := 0; i < len(spans); {
		cur := spans[i]
		for i++; i < len(spans) && spans[i].start < cur.end; i++ {
			cur.end = max(cur.end, spans[i].end)
		}
		b.WriteString(text[at:cur.start])
		b.WriteString("[REDACTED " + cur.preview + "]")
		at = cur.end
	}
	b.WriteString(text[at:])
	return b.String()
}

// known is the set of secrets found in a run, with every piece of
// pieceLen bytes of each, so that a part of a secret is recognised too.
// It is safe for concurrent use.
type known struct {
	mu sync.Mutex
	// whole maps each secret to its preview.
	whole map[string]string
	// pieces maps each piece to the preview of a secret it is part of.
	pieces map[string]string
	// size is the bytes of the secrets in whole.
	size int
}

func (k *known) add(secret string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(secret) < minKnown || k.size+len(secret) > knownBudget {
		return
	}
	if _, ok := k.whole[secret]; ok {
		return
	}
	if k.whole == nil {
		k.whole, k.pieces = map[string]string{}, map[string]string{}
	}
	// A copy: the secret may be part of a large scanned text.
	secret = strings.Clone(secret)
	k.size += len(secret)
	p := preview(secret)
	k.whole[secret] = p
	for i := 0; i+pieceLen <= len(secret); i++ {
		if _, ok := k.pieces[secret[i:i+pieceLen]]; !ok {
			k.pieces[secret[i:i+pieceLen]] = p
		}
	}
}

// spans returns where text holds a known secret shorter than pieceLen, or
// a piece of one.
func (k *known) spans(text string) []span {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.whole) == 0 {
		return nil
	}
	var out []span
	for i := 0; i+pieceLen <= len(text); i++ {
		if p, ok := k.pieces[text[i:i+pieceLen]]; ok {
			out = append(out, span{start: i, end: i + pieceLen, preview: p})
		}
	}
	for secret, p := range k.whole {
		if len(secret) >= pieceLen {
			continue
		}
		for off := 0; ; {
			i := strings.Index(text[off:], secret)
			if i < 0 {
				break
			}
			out = append(out, span{start: off + i, end: off + i + len(secret), preview: p})
			off += i + len(secret)
		}
	}
	return out
}
