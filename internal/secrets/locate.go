package secrets

import (
	"strings"

	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/report"
)

// match is a secret gitleaks found, located in the scanned text.
type match struct {
	rule, description string
	// start and end are the byte offsets of the match in the scanned text;
	// both are -1 for a rule that matched the file's path alone.
	start, end int
	// secret is the secret itself; "" when it could not be located.
	secret string
}

// locate turns a finding of gitleaks in fragment fr into a match: where
// it is in the scanned text and, since gitleaks hands back findings
// redacted, the secret found again in the text.
func locate(det *detect.Detector, fr fragment, f report.Finding) match {
	m := match{rule: f.RuleID, description: f.Description, start: -1, end: -1}
	if f.StartLine < 1 {
		return m
	}
	start, end, ok := offsets(fr.text, f)
	end = min(end, len(fr.text)-1)
	if !ok {
		// The columns do not fit the text: keep the line at least.
		start = lineStart(fr.text, f.StartLine-1)
		end = start + 1
	}
	m.start, m.end = fr.offset(start), fr.offset(end-1)+1
	if ok {
		m.secret = secretIn(det, fr.text[start:end], f)
	}
	return m
}

// offsets returns where a finding's match starts and ends in text, which
// gitleaks scanned with StartLine 1. gitleaks' columns are 1-based on the
// text's first line, and one more on every later line (they count from the
// newline character before it).
func offsets(text string, f report.Finding) (start, end int, ok bool) {
	at := func(line, column int) int {
		off := lineStart(text, line-1)
		if off < 0 {
			return -1
		}
		if line > 1 {
			column--
		}
		return off + column
	}
	start, end = at(f.StartLine, f.StartColumn)-1, at(f.EndLine, f.EndColumn)
	if start < 0 || end <= start || end > len(text) {
		return 0, 0, false
	}
	return start, end, true
}

// lineStart returns the offset of the line that follows n newlines, or -1.
func lineStart(text string, n int) int {
	off := 0
	for ; n > 0; n-- {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			return -1
		}
		off += i + 1
	}
	return off
}

// secretIn finds the secret of a finding in the text its match covers,
// as gitleaks takes it (the rule's secret group, or its first non-empty
// group), and returns it when redacting it gives the match gitleaks
// reported; "" otherwise.
func secretIn(det *detect.Detector, covered string, f report.Finding) string {
	rule, ok := det.Config.Rules[f.RuleID]
	if !ok || rule.Regex == nil {
		return ""
	}
	match := strings.Trim(covered, "\n")
	secret := match
	if groups := rule.Regex.FindStringSubmatch(match); len(groups) >= 2 {
		switch {
		case rule.SecretGroup > 0 && rule.SecretGroup < len(groups):
			secret = groups[rule.SecretGroup]
		case rule.SecretGroup == 0:
			for _, g := range groups[1:] {
				if g != "" {
					secret = g
					break
				}
			}
		}
	}
	if secret == "" || strings.ReplaceAll(match, secret, "REDACTED") != f.Match {
		return ""
	}
	return secret
}
