package secrets

import (
	"fmt"
	"strings"

	"github.com/zricethezav/gitleaks/v8/detect"
	"github.com/zricethezav/gitleaks/v8/report"
)

// secretOf finds again, in the scanned chunk, the secret of a finding that
// gitleaks redacted, so that a preview can be made of it. It returns ""
// when the match cannot be located exactly: the preview is then left out.
//
// gitleaks' columns are 1-based on the fragment's first line, and one more
// on every later line (they count from the previous newline character).
func secretOf(det *detect.Detector, c chunk, f report.Finding) string {
	rule, ok := det.Config.Rules[f.RuleID]
	if !ok || rule.Regex == nil {
		return ""
	}
	at := func(line, column int) int {
		k := line - c.line
		off := 0
		for ; k > 0; k-- {
			i := strings.IndexByte(c.text[off:], '\n')
			if i < 0 {
				return -1
			}
			off += i + 1
		}
		if line > c.line {
			column--
		}
		return off + column
	}
	start, end := at(f.StartLine, f.StartColumn)-1, at(f.EndLine, f.EndColumn)
	if start < 0 || end <= start || end > len(c.text) {
		return ""
	}
	match := strings.Trim(c.text[start:end], "\n")
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

// preview redacts a secret to at most its first four characters (for a
// secret of 16 characters or more) and its length.
func preview(secret string) string {
	r := []rune(secret)
	switch {
	case len(r) == 0:
		return ""
	case len(r) >= 16:
		return fmt.Sprintf("%s…(%d chars)", string(r[:4]), len(r))
	}
	return fmt.Sprintf("…(%d chars)", len(r))
}
